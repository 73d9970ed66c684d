# --call-graph dwarf samples whose unwinding ends early are never folded
# silently. Here the recorded binary and libc are missing (an empty --symfs
# root, no build-id cache): as perf does, no user frame is given at all (perf
# unwinds a process only once one of its objects can be read). Then only libc
# is there: every walk ends at the program's first frame, with no CFI there.
# One warning counts the samples by reason and object; --stats prints the same
# line; -q silences the warning. Each fold is what
# `perf script | stackcollapse-perf.pl` prints with the same files. (Why: a
# walk that ends early, as in a shared libc whose separate debug file is
# installed, must neither fold otherwise than perf nor pass without a word.)
export HOME=/nonexistent
d=$TESTDATA/perf-data/dyn-c-dwarf
mkdir empty
ln -s "$d/perf.data" rec.data
$TOOL --symfs empty --kallsyms "$d/kallsyms" rec.data | sort -t' ' -k2 -n
echo "--- --stats, -q"
$TOOL -q --stats --symfs empty --kallsyms "$d/kallsyms" rec.data 2>&1 >/dev/null |
  grep DWARF
echo "--- libc alone"
mkdir -p libc/usr/lib/x86_64-linux-gnu
cp "$d/root/usr/lib/x86_64-linux-gnu/libc.so.6" libc/usr/lib/x86_64-linux-gnu/
$TOOL --symfs libc --kallsyms "$d/kallsyms" rec.data 2>&1 | sort -t' ' -k2 -n | tail -3
echo "--- the recorded files: nothing said"
$TOOL --symfs "$d/root" --kallsyms "$d/kallsyms" rec.data 2>&1 >/dev/null
