# --jobs N writes the same files as --jobs 1.
mkdir -p arch/a arch/b
cp "$TESTDATA/perf-script/cxx-fp.txt.zst" arch/a/
cp "$TESTDATA/perf-script/syscalls-kernel.txt" arch/b/
cp "$TESTDATA/perf-script/jit.txt" arch/b/
$TOOL -q --jobs 1 --report -o one arch 2>/dev/null
$TOOL -q --jobs 3 --report -o three arch 2>/dev/null
diff -r -x .flamebatch-outputs one three && find three -type f | sort
