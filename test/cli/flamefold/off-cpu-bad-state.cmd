# --off-cpu-state takes letters perf script prints, comma-separated (exit 2).
$TOOL --off-cpu --off-cpu-state SD < /dev/null
