# perf script text with periods reports them as periods, with the sample
# count; tracepoint events have no period, so each sample counts 1 and the
# totals are samples.
S=$TESTDATA/perf-script
$TOOL --top 1 --depth 1 "$S/cxx-fp.txt" | sed -n 1,6p
echo ---
$TOOL --top 1 --depth 1 "$S/tracepoint.txt" | sed -n 1,5p
