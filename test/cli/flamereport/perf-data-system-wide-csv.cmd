# On perf input the CSV columns say the counts are periods (self_period,
# total_period), and each row gives the direct callers and callees ("name
# count;...", heaviest first, at most --width).
P=$TESTDATA/perf-data
cp "$P/system-wide/perf.data" system-wide.data
# (stderr, the warnings about the other processes' DSOs absent from the
# symfs, is another test's matter.)
HOME=/nonexistent $TOOL -q --symfs "$P/root" --kallsyms "$P/system-wide/kallsyms" \
  --top 5 --width 2 -f csv system-wide.data 2> /dev/null
echo "exit $?"
