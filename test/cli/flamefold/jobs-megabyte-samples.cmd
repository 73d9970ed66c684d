# Samples of 0.1 to 1.5 MB (deep stacks of long names), more than a chunk
# each: the threaded reader looks for the empty line that ends one only in the
# bytes that came since its last look (scanning the whole window again for
# every piece would make --jobs 2 slower than --jobs 1), and cuts exactly
# where one thread would have: the same output, read from a file (mapped) or
# from a pipe, with empty lines falling on every side of the reader's 128 KiB
# pieces.
python3 - <<'PY'
import random
random.seed(5)
out = []
for i in range(30):
    out.append(f"app {i%3}/{i%3} [000] {i}.5: 1 cycles:")
    depth = random.randrange(300, 2500)
    name = "ns::Klass<" + "x" * random.randrange(100, 300) + ">::f"
    for d in range(depth):
        out.append(f"\t{d:x} {name}{(i * d) % 97}+0x1 (/lib/z.so)")
    out.append("")
    if i % 7 == 3:
        out.append("")  # two empty lines in a row
open("big.txt", "w").write("\n".join(out) + "\n")
PY
echo "$(wc -c < big.txt | awk '{print int($1 / 1e6)}') MB"
$TOOL -q --jobs 1 big.txt > one
md5sum < one | cut -c1-8
for j in 2 3; do
  $TOOL -q --jobs $j big.txt > file
  $TOOL -q --jobs $j < big.txt > pipe
  cmp -s one file && cmp -s one pipe && echo "--jobs $j: same from a file and a pipe"
done
