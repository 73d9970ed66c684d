"$TOOL" --rows 0 "$TESTDATA/example/example-perf.txt.gz"
