# --inline where the module file is gone: as when addr2line fails, the
# frames are kept as they are (and kernel frames are never looked up).
printf 'app 10 1.0: 1 cpu-clock: \n\t1234 leaf+0x4 (/nonexistent/app)\n\tffffffff81000000 do_syscall_64+0x1 ([kernel.kallsyms])\n\t1200 main+0x20 (/nonexistent/app)\n\n' > in.txt
$TOOL --inline --context in.txt
