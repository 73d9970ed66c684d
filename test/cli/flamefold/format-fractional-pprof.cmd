# pprof's counts are integers: a fractional count is rounded, with a warning.
printf 'p;a 1.5\np;b 2\n' | $TOOL --format=pprof > /dev/null
