# What folding a side lost is said under flamediff's own name (perf script
# quirks, perf.data cut short), in the words flamefold uses, and -q silences
# all of it.
cp $TESTDATA/perf-script/cxx-fp.txt before.txt
cp $TESTDATA/bad/perf-data-cut-6926.data cut.data
mkdir nosyms
$TOOL --symfs nosyms --kallsyms /dev/null before.txt cut.data > out; echo "exit $?"
$TOOL -q --symfs nosyms --kallsyms /dev/null before.txt cut.data > out; echo "exit $?"
