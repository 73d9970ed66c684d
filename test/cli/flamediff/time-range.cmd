# Two slices of one profile compared: --time-range applies to both inputs;
# a malformed one is a usage error.
t=$TESTDATA/perf-data/time-range/system-wide.txt.gz
gzip -dc "$t" > early.txt
$TOOL --time-range 3443.0,3443.5 early.txt early.txt | head -3
$TOOL --time-range 3443.5 early.txt early.txt
echo "exit $?"
