# A folder with good, truncated, corrupt and non-profile files: every good one
# is converted, each bad one is named, and the exit status is 1.
mkdir -p arch/sub
cp "$TESTDATA/perf-script/cxx-fp.txt.gz" arch/
cp "$TESTDATA/perf-script/jit.txt" arch/sub/
printf 'a;b 3\na;c 1\n' > arch/sub/mine.folded
head -c 3000 "$TESTDATA/perf-script/cxx-fp.txt.gz" > arch/cut.txt.gz
python3 -c "import random,sys; random.seed(1); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(3000)))" | zstd -q -c > arch/noise.zst
printf 'not a profile\n' > arch/notes.txt
$TOOL --jobs 1 -q -o out arch
echo "exit $?"
find out -type f | sort
cat out/sub/mine.folded
grep -c '<g' out/sub/jit.svg > /dev/null && echo "jit.svg has frames"
