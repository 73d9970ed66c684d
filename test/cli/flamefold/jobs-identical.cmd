# --jobs N output is byte-identical to one thread.
python3 - <<'PY' > big.txt
import random
random.seed(3)
for i in range(60000):
    print(f"comm{i%7} {i%13}/{i%17} [000] {i}.0: {random.randrange(1,1000)} cycles:")
    for d in range(random.randrange(1, 12)):
        print(f"\t{random.randrange(1<<32):x} fn{random.randrange(50)}+0x1f (/lib/x{d%3}.so)")
    print()
PY
$TOOL big.txt > one; $TOOL --jobs 2 big.txt > two; $TOOL -j 3 --tid big.txt > three; $TOOL --tid big.txt > three1
cmp one two && cmp three three1 && wc -l < one
