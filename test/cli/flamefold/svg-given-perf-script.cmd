# flamesvg given perf script text draws nothing, as flamegraph.pl does, and
# its "no stack counts" error says to run flamefold first, as it does for
# perf.data. The SVG and exit status stay flamegraph.pl's.
cp $TESTDATA/perf-script/cxx-fp.txt perf.txt
$TOOLS/flamesvg perf.txt > out.svg; echo "exit $?"
grep -c 'ERROR' out.svg
$TOOLS/flamesvg < perf.txt > out.svg; echo "stdin exit $?"
cp $TESTDATA/perf-data/two-events/perf.data perf.data
$TOOLS/flamesvg perf.data > out.svg; echo "perf.data exit $?"
# A folded file with an odd line is folded stacks still.
printf 'a;b 3\nnot a stack\n' > odd.folded
$TOOLS/flamesvg --countname ms odd.folded > out.svg; echo "folded exit $?"
# Folded stacks and perf script text together: the graph is drawn from the
# folded lines, and a warning names the perf script input.
printf 'a;b 300\n' > good.folded
$TOOLS/flamesvg good.folded perf.txt > out.svg; echo "mixed exit $?"
