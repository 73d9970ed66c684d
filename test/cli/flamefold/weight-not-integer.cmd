# --weight with a field that is a string (sched_process_exec's __data_loc
# filename), not an integer: an error saying what it is (exit 1).
export HOME=/nonexistent
cp "$TESTDATA/perf-data/weight-kmalloc/perf.data" .
$TOOL --symfs "$TESTDATA/perf-data/weight-kmalloc/root" --weight filename perf.data
