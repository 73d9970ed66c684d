# --off-cpu on the text of one process printed without its switch events
# (perf script without --show-switch-events): most waits end only when the
# thread switches out again, holding the time it ran; a warning says so.
# The same text with them: no warning.
export HOME=/nonexistent
d=$TESTDATA/perf-data/offcpu-fp
gzip -dc "$d/off-cpu/script.txt.gz" | grep -v 'PERF_RECORD_SWITCH' > no-switch.txt
$TOOL --off-cpu no-switch.txt > /dev/null
echo "exit $?"
$TOOL --off-cpu "$d/off-cpu/script.txt.gz" > /dev/null
echo "exit $?"
