# --weight reaches flamereport as a fold option: the malloc uprobe's
# samples count their bytes (100 samples, 821,440 bytes).
export HOME=/nonexistent
d=$TESTDATA/perf-data/weight-malloc
cp "$d/perf.data" .
$TOOL --symfs "$d/root" --weight bytes --top 2 perf.data | sed -n '/^Total/,$p'
