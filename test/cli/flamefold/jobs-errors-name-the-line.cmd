# With --jobs N the input is cut into chunks of about 128 KiB parsed on
# several threads, this one included; a message still names the line of the
# whole input, the first one wins, and --stats counts the same. A file is
# mapped (the threads that parse the chunks count their lines), a pipe is
# read (the reading thread counts them): both say the same as one thread.
python3 - <<'PY'
import random
random.seed(5)
def sample(i, out):
    out.append(f"comm{i%5} {i%11}/{i%13} [000] {i}.0: {random.randrange(1,999)} cycles:")
    for d in range(random.randrange(1, 15)):
        out.append(f"\t{random.randrange(1<<32):x} fn{random.randrange(40)}+0x1f (/lib/x{d%3}.so)")
    out.append("")
lines = []
for i in range(50000):
    sample(i, lines)
    if i == 21000: lines[-2:-1] = ["\tnot a stack line", ""]
good = "\n".join(lines) + "\n"
open("warn.txt", "w").write(good)
bad = lines[:]
at = len(bad) * 2 // 3
while bad[at] != "": at += 1
bad[at + 2] = "\t1234 ma\0in (/bin/x)"
bad[len(bad) - 40] = "\t5678 ot\0her (/bin/x)"
open("nul.txt", "w").write("\n".join(bad) + "\n")
PY
[ "$(wc -c < warn.txt)" -gt 4000000 ] || echo "input too small to make several chunks"
$TOOL --stats --jobs 1 warn.txt > one 2> one.err; echo "exit $?"
$TOOL --jobs 1 nul.txt > /dev/null 2> nul1.err; echo "exit $?"
cat nul1.err
# Read from a pipe, the input is named "-".
cat warn.txt | $TOOL --stats --jobs 2 > piped 2> piped.err; echo "piped exit $?"
sed -i 's/(first: -:/(first: warn.txt:/' piped.err
cmp one piped && cmp one.err piped.err && echo "piped: same output and messages"
cat nul.txt | $TOOL --jobs 2 > /dev/null 2> nul.err; echo "piped exit $?"
sed -i 's/error: -:/error: nul.txt:/' nul.err
cmp nul1.err nul.err && echo "piped: the same error"
for j in 2 3; do
  $TOOL --stats --jobs $j warn.txt > many 2> many.err; echo "jobs $j exit $?"
  cmp one many && cmp one.err many.err && echo "jobs $j: same output and messages"
  # Which thread meets which error depends on timing: several runs.
  same=0
  for run in 1 2 3 4; do
    $TOOL --jobs $j nul.txt > /dev/null 2> nul.err
    [ $? = 1 ] && cmp -s nul1.err nul.err && same=$((same + 1))
  done
  echo "jobs $j: the same error and exit status in $same of 4 runs"
done
grep -c "not a stack line\|unrecognized\|ignored" one.err
