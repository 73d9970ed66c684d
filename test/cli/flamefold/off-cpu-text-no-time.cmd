# --off-cpu on text whose headers have no time (perf script -F without
# time): the line is named (exit 1).
printf 'work 22516/22516 sched:sched_switch: prev_comm=work prev_pid=22516 prev_prio=120 prev_state=S ==> next_comm=x next_pid=0 next_prio=120\n\tffffffff8177539a f ([kernel.kallsyms])\n\n' |
  $TOOL --off-cpu
