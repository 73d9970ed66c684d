# A directory named where a data file is wanted is refused as one, never
# read as an empty file: flamesvg's --nameattr is a usage error, a
# kallsyms that cannot be read leaves the kernel frames [unknown] with a
# warning.
printf 'a;b 1\n' > in.folded
$TOOLS/flamesvg --nameattr . in.folded > /dev/null; echo "exit $?"
$TOOL --kallsyms . "$TESTDATA/perf-data/dyn-c-fp/perf.data" 2>&1 >/dev/null | grep kallsyms
