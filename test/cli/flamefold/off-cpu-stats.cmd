# --stats on --off-cpu: the sched_switch samples, the waits counted and
# cut by the end of the recording, and what was left out.
export HOME=/nonexistent
d=$TESTDATA/perf-data/offcpu-system-wide
$TOOL --symfs "$TESTDATA/perf-data/offcpu-fp/root" --off-cpu --stats -q \
  "$d/off-cpu/script.txt.gz" 2>&1 >/dev/null | grep -e --off-cpu
