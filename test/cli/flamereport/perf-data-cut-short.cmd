# A recording cut short (perf killed while writing: its feature sections, at
# the end, are gone) says which facts are missing and what was lost, in the
# report itself (the warning on stderr is pinned elsewhere).
cp "$TESTDATA/bad/perf-data-cut-6926.data" cut.data
HOME=/nonexistent $TOOL --symfs "$TESTDATA/perf-data/root" --top 1 --depth 1 cut.data 2> /dev/null
echo "exit $?"
HOME=/nonexistent $TOOL --symfs "$TESTDATA/perf-data/root" --top 1 --depth 0 -f json cut.data 2> /dev/null | sed -n 9p
