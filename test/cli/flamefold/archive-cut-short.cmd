# A cut-short archive found beside the perf.data: a warning says what was
# lost, the fold goes on with what the archive still held (exit 0).
export HOME=/nonexistent
cp "$TESTDATA/perf-data/archive-fp/perf.data" .
head -c 1500 "$TESTDATA/perf-data/archive-fp/perf.data.tar.bz2" > perf.data.tar.bz2
mkdir empty
$TOOL --symfs empty perf.data
