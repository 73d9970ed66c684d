# An archive without one of the objects the samples hit: a warning names
# it (path and build id) and says the archive lacked it; its frames stay
# unknown as perf script leaves them, the others are named.
export HOME=/nonexistent
cp "$TESTDATA/perf-data/archive-fp/perf.data" .
mkdir empty u
tar xjf "$TESTDATA/perf-data/archive-fp/perf.data.tar.bz2" -C u
rm -rf u/tmp/ffarc/fp/libtiny.so
find u/.build-id -xtype l -delete
tar cjf part.tar.bz2 -C u .
$TOOL --symfs empty --archive part.tar.bz2 perf.data
