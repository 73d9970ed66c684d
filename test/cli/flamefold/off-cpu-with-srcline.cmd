# --off-cpu (and --on-off, which implies it) with --srcline or --inline: a
# usage error (exit 2), as the man page says.
$TOOL --off-cpu --srcline < /dev/null
echo "exit $?"
$TOOL --on-off --inline < /dev/null
echo "exit $?"
