# --archive naming what is not an archive (or nothing) is an error, exit 1.
cp "$TESTDATA/perf-data/archive-fp/perf.data" .
$TOOL --archive perf.data perf.data
$TOOL --archive nosuch.tar.bz2 perf.data
