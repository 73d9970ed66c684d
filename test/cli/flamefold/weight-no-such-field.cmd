# --weight with a field no event of the recording has: an error naming the
# field and each event's fields (exit 1).
export HOME=/nonexistent
cp "$TESTDATA/perf-data/weight-kmalloc/perf.data" .
$TOOL --symfs "$TESTDATA/perf-data/weight-kmalloc/root" --weight len perf.data
