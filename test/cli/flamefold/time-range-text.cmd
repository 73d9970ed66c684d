# A range on perf script text, from standard input too; and with --jobs 2.
t=$TESTDATA/perf-data/time-range/two-events.txt.gz
$TOOL --time-range 3450.5,3451.0 "$t"
gzip -dc "$t" | $TOOL --jobs 2 --time-range '3450.3,3450.6 3451.0,3451.3'
