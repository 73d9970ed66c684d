# An interrupted run leaves no partial output: each output is written under
# a temporary name and renamed when complete.
mkdir arch
python3 - <<'PY' > arch/big.txt
import random
random.seed(2)
out = []
for i in range(150000):
    out.append(f"server {i%7} {i}.0: 1 cycles:\n")
    for d in range(random.randrange(5, 30)):
        out.append(f"\t{random.randrange(1<<40):x} fn{random.randrange(20000)}+0x{random.randrange(99):x} (/lib/lib{d%9}.so)\n")
    out.append("\n")
print("".join(out), end="")
PY
$TOOL --jobs 1 -q -o out arch 2>/dev/null & pid=$!
sleep 0.3; kill -INT $pid; wait $pid
# Whether or not the run got to the end, no temporary file is left and any
# output present is whole.
echo "temporary files left: $(find out -name '*.tmp.*' 2>/dev/null | wc -l)"
for f in $(find out -name '*.svg' 2>/dev/null); do tail -n 1 "$f" | grep -q '</svg>' || echo "partial: $f"; done
echo done
