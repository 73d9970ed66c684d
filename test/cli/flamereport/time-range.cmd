# flamereport folds with --time-range as flamefold does; a range outside the
# profile is an error naming its times.
t=$TESTDATA/perf-data/time-range/system-wide.txt.gz
gzip -dc "$t" > sw.txt
$TOOL --time-range 3443.0,3443.5 sw.txt | head -4
$TOOL --time-range 1,2 sw.txt
echo "exit $?"
