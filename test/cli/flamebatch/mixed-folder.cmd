# A folder with good, truncated, corrupt and non-profile files: every good one
# is converted; each truncated or corrupt profile is named and fails the
# batch (exit 1); each file that is no profile (text, binary data) is passed
# over with one warning.
mkdir -p arch/sub
cp "$TESTDATA/perf-script/cxx-fp.txt.gz" arch/
cp "$TESTDATA/perf-script/jit.txt" arch/sub/
printf 'a;b 3\na;c 1\n' > arch/sub/mine.folded
head -c 3000 "$TESTDATA/perf-script/cxx-fp.txt.gz" > arch/cut.txt.gz
python3 -c "import random,sys; random.seed(1); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(3000)))" | zstd -q -c > arch/noise.zst
printf 'not a profile\n' > arch/notes.txt
cp "$TESTDATA/bad/perf-data-cut-200.data" arch/cut.data
$TOOL --jobs 1 --modern -o out arch
echo "exit $?"
find out -type f | sort
cat out/sub/mine.folded.folded
grep -c '<g' out/sub/jit.txt.svg > /dev/null && echo "jit.txt.svg has frames"
