# perf script text without times (perf script -F comm,pid,ip,sym) makes no
# heat map.
printf 'app 10 cycles:\n\t1000 main (/bin/app)\n\napp 10 cycles:\n\t1000 main (/bin/app)\n\n' | "$TOOL" --per-second
