# No stacks: each format still writes a valid, empty profile.
$TOOL --format=d3 < /dev/null
$TOOL --format=speedscope < /dev/null
$TOOL --format=pprof < /dev/null | gzip -dc | od -An -c | tr -s ' '
