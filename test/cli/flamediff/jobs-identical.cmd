# flamediff folds perf script sides through flamefold's FoldInputs and so
# takes --jobs; on inputs of several MB (parsed in chunks on N threads) the
# output is byte-identical to one thread's.
gen() {
python3 - "$1" <<'PY'
import random, sys
random.seed(int(sys.argv[1]))
for i in range(40000):
    print(f"comm{i%5} {i%13}/{i%17} [000] {i}.0: {random.randrange(1,1000)} cycles:")
    for d in range(random.randrange(1, 12)):
        print(f"\t{random.randrange(1<<32):x} fn{random.randrange(40)}+0x1f (/lib/x{d%3}.so)")
    print()
PY
}
gen 3 > before.txt; gen 4 > after.txt
[ "$(stat -c %s before.txt)" -gt 3000000 ] && echo "inputs of several MB"
$TOOL --jobs 1 before.txt after.txt > one
$TOOL --jobs 2 before.txt after.txt > two
$TOOL --jobs 3 --report before.txt after.txt > three
$TOOL --jobs=1 --report before.txt after.txt > three1
cmp one two && cmp three three1 && wc -l < one
$TOOL --jobs x before.txt after.txt; echo "exit $?"
