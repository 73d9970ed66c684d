# Each event of the recording with its rate and samples; the profile keeps one
# event (the first seen, as stackcollapse-perf.pl does) and says which, with
# its sample count and period sum.
P=$TESTDATA/perf-data
cp "$P/two-events/perf.data" two-events.data
HOME=/nonexistent $TOOL --symfs "$P/root" --kallsyms "$P/two-events/kallsyms" \
  --top 2 --depth 1 two-events.data
