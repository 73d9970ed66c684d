printf 'perf 1 1.0: 1 cycles:\n\tffff a (m)\n\nperf 1 1.0: 5 cycles:\n\tffff b (m)\n' > in.txt
$TOOL in.txt; echo "---"; $TOOL --modern in.txt; echo "---"; $TOOL -q in.txt
