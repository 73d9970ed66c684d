# Several ranges must be in order and apart, as perf script --time wants.
$TOOL --time-range '1.0,3.0 2.0,4.0' /dev/null
