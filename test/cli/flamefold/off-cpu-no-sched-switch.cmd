# --off-cpu on a recording without a sched:sched_switch event: an error
# naming its events (exit 1).
export HOME=/nonexistent
$TOOL --symfs "$TESTDATA/perf-data/root" --off-cpu \
  "$TESTDATA/perf-data/fp-user/perf.data" 2>&1 >/dev/null |
  sed "s|$TESTDATA|TESTDATA|"
exit "${PIPESTATUS[0]}"
