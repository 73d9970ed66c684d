# The same for a relative range on text: the message also gives the times
# after the first sample.
$TOOL --time-range +10,+20 "$TESTDATA/perf-data/time-range/two-events.txt.gz"
