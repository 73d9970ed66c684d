# --srcline reads the source lines of perf script -F+srcline text; the
# perf.data replay has none: an error that says what to use instead.
$TOOL --srcline "$TESTDATA/perf-data/dwarf-shlib/perf.data" > /dev/null
