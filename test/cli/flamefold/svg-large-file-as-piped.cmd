# flamesvg draws a named file as it draws the same bytes from a pipe, sorted
# or not (out of order, a file is read again from its start, a pipe's copy is
# read back), with a line of 3 MiB, invalid UTF-8 and --reverse. A named file
# is read, not mapped: where the kernel maps the page cache in 2 MiB folios a
# mapping holds more memory, and reading is no slower.
python3 - <<'PY'
import random
random.seed(7)
names = [f"fn{i}" for i in range(300)] + ["caf\xe9".encode("latin-1").decode("latin-1")]
lines = set()
while len(lines) < 40000:
    depth = random.randrange(1, 20)
    lines.add(";".join(random.choice(names) for _ in range(depth)))
stacks = sorted(lines)
with open("sorted.folded", "wb") as f:
    for s in stacks:
        f.write(s.encode("latin-1") + b" %d\n" % random.randrange(1, 100))
random.shuffle(stacks)
with open("shuffled.folded", "wb") as f:
    for i, s in enumerate(stacks):
        f.write(s.encode("latin-1") + b" %d\n" % (i % 97 + 1))
        if i == 20000:
            f.write(b"long;" + b"x" * (3 << 20) + b" 5\n")
PY
for f in sorted.folded shuffled.folded; do
  [ "$(wc -c < $f)" -gt 2000000 ] || echo "$f: too small to be mapped in several windows"
  for opts in "" "--reverse"; do
    $TOOLS/flamesvg $opts $f > file.svg 2> file.err; a=$?
    cat $f | $TOOLS/flamesvg $opts > pipe.svg 2> pipe.err; b=$?
    sed -i "s/: -: /: $f: /" pipe.err  # a pipe is named "-"
    cmp -s file.svg pipe.svg && cmp -s file.err pipe.err && [ $a = $b ] &&
      echo "$f $opts: the same SVG and messages, exit $a"
  done
done
cat file.err
