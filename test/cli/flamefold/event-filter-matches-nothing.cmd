# --event-filter must name an event whole: "cpu" for "cpu-clock" matches no
# sample. The output stays stackcollapse-perf.pl's (empty), but a warning
# lists the events the input has.
cp $TESTDATA/perf-script/cxx-two-events.txt two.txt
P=two.txt
$TOOL --event-filter cpu $P; echo "exit $?"
$TOOL --event-filter cpu --jobs 2 $P; echo "jobs 2 exit $?"
D=$TESTDATA/perf-data/two-events
# --symfs: the recorded binary, /tmp/ffrec/work, is under perf-data/root;
# without it the outcome would depend on the host's ~/.debug (a host where it
# was recorded finds it there; a fresh one warns "no symbols found").
HOME=/nonexistent $TOOL --event-filter cpu --symfs $TESTDATA/perf-data/root --kallsyms $D/kallsyms $D/perf.data; echo "perf.data exit $?"
$TOOLS/flamereport --event-filter cpu --format csv $P; echo "flamereport exit $?"
$TOOL -q --event-filter cpu-clock $P | wc -l
