# What folding loses is said under flamereport's own name, and -q silences it.
S=$TESTDATA/perf-script
$TOOL --top 1 --depth 0 "$S/cxx-fp.txt" > /dev/null
echo "exit $?"
$TOOL -q --top 1 --depth 0 "$S/cxx-fp.txt" > /dev/null
echo "exit $?"
