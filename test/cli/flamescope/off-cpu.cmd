# --off-cpu, a fold option flamescope takes with the others, is refused:
# the heat map counts samples, and a wait is none (exit 2).
$TOOL --off-cpu < /dev/null
