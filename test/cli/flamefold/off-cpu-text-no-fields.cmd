# --off-cpu on text whose sched_switch samples lack their fields (perf
# script -F without trace): the line is named (exit 1).
printf 'work 22516/22516 [000] 10.000001: sched:sched_switch: \n\tffffffff8177539a f ([kernel.kallsyms])\n\n' |
  $TOOL --off-cpu
