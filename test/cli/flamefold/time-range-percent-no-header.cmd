# Percent slices need the first and last sample times of the perf.data
# header; this --call-graph dwarf recording was made without build ids, so
# its header has none.
export HOME=/nonexistent
d=$TESTDATA/perf-data/dyn-c-dwarf
cp "$d/perf.data" .
$TOOL --symfs "$d/root" --kallsyms "$d/kallsyms" --time-range 10%/2 perf.data
