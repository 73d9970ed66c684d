# A profile from another host: perf.data with the perf.data.tar.bz2 that
# `perf archive` wrote beside it is folded with the archive's symbols, and
# a note says so; the binaries are nowhere here (an empty --symfs root).
export HOME=/nonexistent
cp "$TESTDATA/perf-data/archive-fp/perf.data" "$TESTDATA/perf-data/archive-fp/perf.data.tar.bz2" .
mkdir empty
$TOOL --symfs empty perf.data
