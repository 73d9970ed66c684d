# A perf.data with the perf.data.tar.bz2 that `perf archive` wrote beside
# it: the perf.data is converted with the archive's symbols (the note says
# so) and the archive itself is no input of its own.
export HOME=/nonexistent
mkdir arch
cp "$TESTDATA/perf-data/archive-fp/perf.data" "$TESTDATA/perf-data/archive-fp/perf.data.tar.bz2" arch/
$TOOL --jobs 1 --folded -o out arch
echo "exit $?"
find out -type f | sort
cat out/perf.data.folded
