# A range outside the recording: an error naming the range and the times
# the input holds (perf script prints nothing).
export HOME=/nonexistent
d=$TESTDATA/perf-data
cp "$d/two-events/perf.data" .
$TOOL --symfs "$d/root" --kallsyms "$d/two-events/kallsyms" \
  --time-range 9000,9001 perf.data
