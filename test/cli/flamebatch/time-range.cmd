# --time-range applies to every input as flamefold applies it; a malformed
# one is a usage error.
mkdir arch
gzip -dc "$TESTDATA/perf-data/time-range/system-wide.txt.gz" > arch/sw.txt
$TOOL -q --folded --time-range '3443.0,3443.5' -o out arch
echo "exit $?"
"$TOOLS/flamefold" -q --time-range '3443.0,3443.5' arch/sw.txt |
  cmp - out/sw.txt.folded && echo "as flamefold folds it"
$TOOL -q --time-range '2,1' -o bad arch
echo "exit $?"
