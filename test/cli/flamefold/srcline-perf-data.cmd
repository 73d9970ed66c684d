# --srcline reads the source lines of perf script -F+srcline text; the
# perf.data replay has none: an error that says what to use instead.
cp "$TESTDATA/perf-data/dwarf-shlib/perf.data" dwarf.data
$TOOL --srcline dwarf.data > /dev/null
