# --off-cpu on perf script text of another event: no wait can be found
# (exit 1).
printf 'work 22516 [000] 10.000001: 1 cpu-clock: \n\tffffffff8177539a f ([kernel.kallsyms])\n\n' |
  $TOOL --off-cpu
