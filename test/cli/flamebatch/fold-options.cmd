# flamefold's options (spelled in full) apply to every input, exactly as
# flamefold applies them; a bad one is a usage error.
mkdir arch
cp "$TESTDATA/perf-script/cxx-fp.txt" arch/
cp "$TESTDATA/perf-script/syscalls-kernel.txt" arch/
$TOOL -q --folded --modern --pid --kernel --exclude 'memcpy' -o out arch
echo "exit $?"
for f in cxx-fp.txt syscalls-kernel.txt; do
  "$TOOLS/flamefold" -q --modern --pid --kernel --exclude 'memcpy' "arch/$f" | cmp - "out/$f.folded" && echo "$f: as flamefold folds it"
done
$TOOL -q --include '(' -o bad arch
echo "exit $?"
