# Transforms apply to perf script text as to folded stacks; with --tid,
# --generalize-names folds the thread names but keeps "-PID/TID".
printf 'pool-1-thread-2 10/11 1.0: 1 cpu-clock:\n\t1 work (/bin/w)\n\t2 run (/bin/w)\n\t3 run (/bin/w)\n\npool-1-thread-3 10/12 1.0: 1 cpu-clock:\n\t1 work (/bin/w)\n\t2 run (/bin/w)\n\n' > in.txt
$TOOL --generalize-names --collapse-recursion in.txt
echo ---
$TOOL --tid --generalize-names in.txt
echo ---
$TOOL --kernel --skip-after run in.txt
