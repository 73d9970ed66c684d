# A pipe-mode recording has no first and last sample times either.
export HOME=/nonexistent
d=$TESTDATA/perf-data
cp "$d/pipe/perf.data" .
$TOOL --symfs "$d/root" --kallsyms "$d/pipe/kallsyms" \
  --time-range 0%-10%,30%-40% perf.data
