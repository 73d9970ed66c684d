# Text whose headers have no time (perf script -F without time): a range
# cannot be applied.
printf 'work 22516 page-faults: \n\tffffffff8177539a f ([kernel.kallsyms])\n\n' |
  $TOOL --time-range 1,2
