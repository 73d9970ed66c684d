# --off-cpu-unit is ns, us or ms (exit 2).
$TOOL --off-cpu --off-cpu-unit s < /dev/null
