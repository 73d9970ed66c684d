# --weight on a recording of cpu-clock samples, which have no fields: an
# error (exit 1).
export HOME=/nonexistent
cp "$TESTDATA/perf-data/fp-user/perf.data" .
$TOOL --symfs "$TESTDATA/perf-data/root" --weight bytes perf.data
