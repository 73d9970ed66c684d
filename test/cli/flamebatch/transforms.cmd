# The transforms (spelled in full) apply to every input, as flamefold
# applies them; a bad pattern is a usage error.
mkdir arch
cp "$TESTDATA/perf-script/cxx-fp.txt" arch/
$TOOL -q --folded --collapse-recursion --hide '^std::' -o out arch
echo "exit $?"
"$TOOLS/flamefold" -q --collapse-recursion --hide '^std::' arch/cxx-fp.txt | cmp - out/cxx-fp.txt.folded && echo "as flamefold folds it"
$TOOL -q --focus '(' -o bad arch
echo "exit $?"
exit 0
