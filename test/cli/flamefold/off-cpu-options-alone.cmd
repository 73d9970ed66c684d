# --off-cpu-min-us without --off-cpu would do nothing: a usage error.
$TOOL --off-cpu-min-us 10 < /dev/null
