# Inputs with no sample boundary for megabytes (a 30 MB line with or without
# a newline, a 200,000-frame stack, samples on either side) fold with
# --jobs 2 and 3 exactly as with one thread: same output, messages and exit
# status; the threaded reader hands such a rest of the input to the
# sequential parser instead of holding it.
python3 - <<'PY'
import random
random.seed(11)
def samples(n, seed_base):
    out = []
    for i in range(n):
        out.append(f"app {i%7}/{i%5} [001] {seed_base+i}.5: 100 cycles:")
        for d in range(1 + i % 9):
            out.append(f"\t{random.randrange(1<<40):x} f{(i*d)%60}+0x{d:x} (/usr/lib/libz{d%4}.so)")
        out.append("")
    return "\n".join(out) + "\n"
big = "x" * (30 << 20)
open("line-nl.txt", "w").write(samples(30000, 0) + "app 1/1 [001] 9.0: 1 cycles:\n\t1 " + big + " (/x)\n\n" + samples(30000, 50000))
open("line-no-nl.txt", "w").write(samples(30000, 0) + big)
deep = "app 2/2 [000] 7.0: 1 cycles:\n" + "".join(f"\t{k:x} g{k%1000}+0x1 (/lib/y.so)\n" for k in range(200000)) + "\n"
open("deep.txt", "w").write(samples(30000, 0) + deep + samples(30000, 90000))
PY
for f in line-nl.txt line-no-nl.txt deep.txt; do
  $TOOL --stats --jobs 1 $f > one 2> one.err; echo "$f: exit $?, $(wc -l < one) stacks"
  sed "s/^/  /" one.err
  for j in 2 3; do
    $TOOL --stats --jobs $j $f > many 2> many.err; s=$?
    cmp -s one many && cmp -s one.err many.err && echo "  --jobs $j: same, exit $s"
  done
done
# Memory stays bounded: a 100 MB line without a newline read by 2 threads is
# never held whole, so the peak grows by less than 64 MiB over that of the
# samples alone. Lines are capped at 1 MB here so that the sanitizers' shadow
# of the line buffer stays small.
python3 -c '
import sys
head = open("line-no-nl.txt").read(2000000).rsplit("\n\n", 1)[0] + "\n\n"
open("small.txt", "w").write(head)
open("hundred.txt", "w").write(head + "app 1/1 [001] 1.0: 1 cycles:\n\t1 " + "y" * (100 << 20))'
python3 - "$TOOL" <<'PY'
import subprocess, sys
def Peak(path):  # KiB, of a child started from this small process alone
    code = ("import resource, subprocess, sys; "
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, sys.argv[1], "-q", "--jobs", "2",
                          "--max-line-length", "1000000", path], capture_output=True, text=True)
    return int(out.stdout)
grown = (Peak("hundred.txt") - Peak("small.txt")) // 1024
print("100 MB line, --jobs 2: peak RSS grows by less than 64 MiB:", grown < 64)
PY
