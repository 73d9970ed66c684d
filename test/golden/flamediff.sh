#!/bin/bash
# flamediff against difffolded.pl's real output.
#   flamediff.sh          golden: the same lines as difffolded.pl (compared
#                         sorted: Perl prints them in random hash order)
#   flamediff.sh cli      options, usage errors, exit statuses, messages
#   flamediff.sh report   --report against an independent computation (also
#                         part of golden)
# Expected files are testdata/flamediff/BEFORE_AFTER.OPTS.expected, printed
# by difffolded.pl and sorted with LC_ALL=C sort; BLESS=1 prints them afresh
# (needs perl and /tmp/FlameGraph, or FLAMEGRAPH=DIR).
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
DIFF=$BUILD_DIR/src/tools/flamediff
D=$TESTDATA/flamediff
FG=${FLAMEGRAPH:-/tmp/FlameGraph}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# expected_for OPTS BEFORE AFTER -> path of the expected file
expected_for() {
  local tag=${1//-/}; tag=${tag// /}
  echo "$D/$2_$3.${tag:-default}.expected"
}

golden() {
  local cases=(
    ":numa:numa-all" "-n:numa:numa-all" "-s:numa:numa-all"
    "-n:numa-all:numa" ":dd:mirageos" "-n:dd:mirageos"
    ":java-faults:java-faults-pid" "-n:java-faults:java-faults-pid"
    ":edge-before:edge-after" "-n:edge-before:edge-after"
    "-s:edge-before:edge-after" "-ns:edge-before:edge-after"
    ":big-before:big-after" "-n:big-before:big-after"
    ":numbers-before:numbers-after" "-n:numbers-before:numbers-after"
  )
  for c in "${cases[@]}"; do
    IFS=: read -r opts b a <<<"$c"
    exp=$(expected_for "$opts" "$b" "$a")
    if [ "${BLESS:-}" = 1 ]; then
      perl "$FG/difffolded.pl" $opts "$D/$b.folded" "$D/$a.folded" 2>/dev/null |
        LC_ALL=C sort > "$exp" || { bad "bless $exp"; continue; }
    fi
    check "flamediff $opts $b $a" "$exp" $opts "$D/$b.folded" "$D/$a.folded"
  done
  # Pairs of our own recordings (testdata/perf-script), given to flamediff
  # as perf script text; the expected lines are difffolded.pl's over
  # stackcollapse-perf.pl's output of the same files.
  local PS=$TESTDATA/perf-script
  for c in ":cxx-fp:cxx-dwarf" "-n:cxx-fp:cxx-dwarf" "-ns:cxx-fp:cxx-dwarf" "-n:cxx-dwarf:cxx-fp" \
           ":cxx-fp:cxx-two-events" "-ns:cxx-two-events:syscalls-kernel"; do
    IFS=: read -r opts b a <<<"$c"
    exp=$(expected_for "$opts" "$b" "$a")
    if [ "${BLESS:-}" = 1 ]; then
      perl "$FG/stackcollapse-perf.pl" "$PS/$b.txt" > "$T/b.folded" 2>/dev/null &&
      perl "$FG/stackcollapse-perf.pl" "$PS/$a.txt" > "$T/a.folded" 2>/dev/null &&
      perl "$FG/difffolded.pl" $opts "$T/b.folded" "$T/a.folded" 2>/dev/null |
        LC_ALL=C sort > "$exp" || { bad "bless $exp"; continue; }
    fi
    check "flamediff $opts $b.txt $a.txt" "$exp" $opts "$PS/$b.txt" "$PS/$a.txt"
  done
  # perf.data recorded here (testdata/perf-data), given to flamediff as
  # they are. The expected lines are difffolded.pl's over each case's
  # default.folded (perf script | stackcollapse-perf.pl, kept next to the
  # recording): BEFORE_AFTER.OPTS.expected like the others (re-bless them
  # when those cases are re-recorded). Symbols come only from the cases'
  # files, as in golden-perf-data.
  local PD=$TESTDATA/perf-data
  for c in ":fp-user:two-events" "-n:fp-user:system-wide" "-ns:jit:fp-user"; do
    IFS=: read -r opts b a <<<"$c"
    exp=$(expected_for "$opts" "$b" "$a")
    if [ "${BLESS:-}" = 1 ]; then
      perl "$FG/difffolded.pl" $opts "$PD/$b/default.folded" "$PD/$a/default.folded" 2>/dev/null |
        LC_ALL=C sort > "$exp" || { bad "bless $exp"; continue; }
    fi
    # One --kallsyms serves both sides: BEFORE is a user-only recording
    # (fp-user, jit), so AFTER's kernel symbols are the ones needed.
    HOME=/nonexistent check "flamediff $opts $b/perf.data $a/perf.data" "$exp" $opts \
      --symfs "$PD/root" --kallsyms "$PD/$a/kallsyms" "$PD/$b/perf.data" "$PD/$a/perf.data"
  done
  # End to end: flamediff | flamesvg draws the frames that
  # difffolded.pl -n | flamegraph.pl --hash drew for the same recordings
  # (testdata/flamesvg/variants/diff.svg.gz, made by test/golden/flamesvg.sh).
  local SVG=$BUILD_DIR/src/tools/flamesvg E=$TESTDATA/expected/flamefold
  "$DIFF" -n "$PS/cxx-fp.txt" "$PS/cxx-dwarf.txt" | "$SVG" --hash > "$T/ours.svg"
  if python3 "$(dirname "$0")/svgframes.py" "$T/ours.svg" "$TESTDATA/flamesvg/variants/diff.svg.gz" > "$T/cmp" 2>&1; then
    ok "flamediff -n | flamesvg = difffolded.pl -n | flamegraph.pl"
  else
    bad "flamediff | flamesvg frames differ:"; head -5 "$T/cmp"
  fi
  # Two real recordings with large counts (periods), given folded.
  check "flamediff cxx-fp cxx-dwarf (folded)" "$(expected_for "" cxx-fp cxx-dwarf)" \
    "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt"
  check "flamediff -n cxx-fp cxx-dwarf (folded)" "$(expected_for -n cxx-fp cxx-dwarf)" \
    -n "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt"
  check "flamediff -n -s cxx-fp cxx-dwarf (folded)" "$(expected_for -ns cxx-fp cxx-dwarf)" \
    -n -s "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt"
  # The input layer: perf script text is folded first (numa.folded is
  # stackcollapse-perf.pl of that file, one of FlameGraph's test inputs),
  # compressed files and stdin work.
  local P=$TESTDATA/flamegraph-tests/perf-numa-stacks-01.txt.gz
  check "flamediff perf-script numa-all" "$(expected_for "" numa numa-all)" "$P" "$D/numa-all.folded"
  check "flamediff -n numa-all perf-script" "$(expected_for -n numa-all numa)" -n "$D/numa-all.folded" "$P"
  gzip -c "$D/numa.folded" > "$T/numa.gz"
  check "flamediff gzip numa-all" "$(expected_for "" numa numa-all)" "$T/numa.gz" "$D/numa-all.folded"
  if command -v zstd >/dev/null; then
    zstd -q -c "$D/numa-all.folded" > "$T/all.zst"
    check "flamediff numa zstd" "$(expected_for "" numa numa-all)" "$D/numa.folded" "$T/all.zst"
  else
    bad "zstd case: no zstd command (apt-get install zstd)"
  fi
  check "flamediff - (stdin) numa-all" "$(expected_for "" numa numa-all)" - "$D/numa-all.folded" < "$D/numa.folded"
}

# check NAME EXPECTED ARGS...: same lines as EXPECTED, printed sorted by
# stack and the same on every run.
check() {
  local name=$1 exp=$2; shift 2
  if [ ! -f "$exp" ]; then bad "$name: no expected file $exp"; return; fi
  "$DIFF" "$@" > "$T/out" 2> "$T/err"
  local status=$?
  if [ "$status" != 0 ]; then
    bad "$name: exit status $status"; cat "$T/err"; return
  fi
  if ! LC_ALL=C sort "$T/out" | cmp -s - "$exp"; then
    bad "$name: lines differ from difffolded.pl's ($exp):"
    LC_ALL=C sort "$T/out" | diff - "$exp" | head -20
    return
  fi
  # Sorted by stack: the stacks alone are in byte order.
  if ! sed -E 's/ [^ ]+ [^ ]+$//' "$T/out" | LC_ALL=C sort -c 2>/dev/null; then
    bad "$name: output is not sorted by stack"; return
  fi
  ok "$name"
}

# --report against shares computed independently (Python, below) from the
# folded stacks: self and total per function (a stack counts once for a
# function), in % of each profile, the changes in points and their order.
report() {
  if ! command -v python3 >/dev/null; then
    bad "--report checks: python3 is needed (apt-get install python3)"; return
  fi
  cat > "$T/shares.py" <<'PY'
# shares.py BEFORE.folded AFTER.folded REPORT.txt
import re, sys
LINE = re.compile(rb'^(.*)\s(\d+(?:\.\d*)?)$', re.S)
def shares(path):
    stacks = {}
    for raw in open(path, 'rb').read().split(b'\n'):
        m = LINE.match(raw)
        if m:
            stacks[m.group(1)] = stacks.get(m.group(1), 0) + int(m.group(2))
    total = sum(stacks.values())
    self_, tot = {}, {}
    for stack, n in stacks.items():
        funcs = stack.split(b';')[1:]     # the first frame is the process
        for f in funcs:
            self_.setdefault(f, 0); tot.setdefault(f, 0)
        if funcs:
            self_[funcs[-1]] += n
        for f in set(funcs):
            tot[f] += n
    pct = lambda x: 100.0 * x / total if total else 0.0
    return {f: (pct(self_[f]), pct(tot[f])) for f in self_}
b, a = shares(sys.argv[1]), shares(sys.argv[2])
rows = []
for f in sorted(set(b) | set(a)):
    sb, tb = b.get(f, (0.0, 0.0)); sa, ta = a.get(f, (0.0, 0.0))
    ds, dt = sa - sb, ta - tb
    if ds != 0 or dt != 0:
        rows.append((f, sb, sa, ds, tb, ta, dt))
grow = lambda r: max(r[3], r[6])
up = sorted([r for r in rows if grow(r) > 0], key=lambda r: -grow(r))
down = sorted([r for r in rows if grow(r) <= 0], key=lambda r: min(r[3], r[6]))
def points(x):
    s = '%+.2f' % x
    return '+0.00' if s == '-0.00' else s
want = ['%s %s %s %s %s %s %s' % ('%.2f' % r[1], '%.2f' % r[2], points(r[3]),
        '%.2f' % r[4], '%.2f' % r[5], points(r[6]), r[0].decode('latin-1'))
        for r in up + down]
got = [' '.join(l.split(None, 6)) for l in
       open(sys.argv[3], 'rb').read().decode('latin-1').split('\n')[4:] if l and not l.startswith('(')]
if got != want:
    for i, (g, w) in enumerate(zip(got + [''] * len(want), want + [''] * len(got))):
        if g != w:
            print('  row %d: flamediff %r\n         reference %r' % (i + 1, g, w))
            break
    sys.exit(1)
PY
  local E=$TESTDATA/expected/flamefold
  for c in "$D/numa.folded $D/numa-all.folded" \
           "$D/java-faults.folded $D/java-faults-pid.folded" \
           "$D/dd.folded $D/mirageos.folded" \
           "$E/cxx-fp-collapsed-none.txt $E/cxx-dwarf-collapsed-none.txt" \
           "$E/system-wide-collapsed-none.txt $E/syscalls-kernel-collapsed-none.txt"; do
    set -- $c
    if ! "$DIFF" --report --top 0 "$1" "$2" > "$T/report.txt" 2> "$T/err"; then
      bad "--report $(basename "$1") $(basename "$2"): exit status"; cat "$T/err"; continue
    fi
    if python3 "$T/shares.py" "$1" "$2" "$T/report.txt"; then
      ok "--report $(basename "$1") $(basename "$2")"
    else
      bad "--report $(basename "$1") $(basename "$2"): differs from the reference (above)"
    fi
  done
  # perf script text gives the same report as its folded form.
  "$DIFF" --report --top 0 "$TESTDATA/perf-script/cxx-fp.txt" "$TESTDATA/perf-script/cxx-dwarf.txt" > "$T/r2.txt" 2>/dev/null
  "$DIFF" --report --top 0 "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt" > "$T/r1.txt" 2>/dev/null
  cmp -s "$T/r1.txt" "$T/r2.txt" && ok "--report from perf script text" || bad "--report differs for perf script text"
  # --threshold: status 3 exactly when the largest growth exceeds P.
  local max
  max=$(awk 'NR > 4 && NF >= 7 { for (i = 3; i <= 6; i += 3) if ($i + 0 > m) m = $i + 0 } END { printf "%.2f", m }' \
        <("$DIFF" --report --top 0 "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt"))
  local below above
  below=$(awk -v m="$max" 'BEGIN { printf "%.2f", m - 0.02 }')
  above=$(awk -v m="$max" 'BEGIN { printf "%.2f", m + 0.01 }')
  "$DIFF" --threshold "$below" "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt" > /dev/null 2>&1
  [ $? = 3 ] && ok "--threshold $below (largest growth $max): 3" || bad "--threshold $below: want 3"
  "$DIFF" --threshold "$above" "$E/cxx-fp-collapsed-none.txt" "$E/cxx-dwarf-collapsed-none.txt" > /dev/null 2>&1
  [ $? = 0 ] && ok "--threshold $above: 0" || bad "--threshold $above: want 0"
}

# expect NAME STATUS STDERR-REGEX ARGS...: exit status and a message.
expect() {
  local name=$1 status=$2 re=$3; shift 3
  "$DIFF" "$@" > "$T/out" 2> "$T/err"
  local got=$?
  if [ "$got" != "$status" ]; then
    bad "$name: exit status $got, want $status"; cat "$T/err"; return
  fi
  if [ -n "$re" ] && ! grep -Eq -- "$re" "$T/err"; then
    bad "$name: stderr does not match /$re/:"; cat "$T/err"; return
  fi
  ok "$name"
}

cli() {
  local a=$D/numa.folded b=$D/numa-all.folded
  expect "no files" 2 '^flamediff: error: expected two files.*got 0$'
  expect "one file" 2 'got 1$' "$a"
  expect "three files" 2 'got 3$' "$a" "$b" "$b"
  expect "unknown letter" 2 '^flamediff: error: Unknown option: x$' -nx "$a" "$b"
  expect "unknown long" 2 'Unknown option: frobnicate' --frobnicate "$a" "$b"
  expect "usage line" 2 '^Usage: flamediff \[-hns\]' -x "$a" "$b"
  expect "bad threshold" 2 'threshold takes percentage points' --threshold=abc "$a" "$b"
  expect "threshold needs a value" 2 'requires an argument' "--threshold"
  expect "bad top" 2 'top takes a number' --top -1 "$a" "$b"
  expect "two stdins" 2 'only one of BEFORE and AFTER' - -
  expect "missing file" 1 "^flamediff: error: $T/nope: No such file" "$T/nope" "$b"
  expect "directory" 1 'is a directory' "$T" "$b"
  expect "--symfs needs a value" 2 'Option symfs requires an argument' --symfs
  expect "bad --max-line-length" 2 "max-line-length takes a number of bytes, 1 or more, not '0'" --max-line-length 0 "$a" "$b"
  printf 'a;b 1\n%s 2\n' "$(head -c 100 /dev/zero | tr '\0' x)" > "$T/long"
  expect "--max-line-length skips and warns" 0 "^flamediff: warning: $T/long:2: 1 line" --max-line-length 50 "$T/long" "$T/long"
  expect "ok" 0 '' "$a" "$b"
  expect "-- ends options" 0 '' -n -- "$a" "$b"
  expect "bundled -ns" 0 '' -ns "$a" "$b"
  for h in -h --help; do
    "$DIFF" $h > "$T/out" 2> "$T/err"
    if [ $? = 0 ] && grep -q '^Usage: flamediff' "$T/out" && [ ! -s "$T/err" ]; then ok "$h"; else bad "$h"; fi
  done
  "$DIFF" --version | grep -Eq '^flamediff [0-9]' && ok "--version" || bad "--version"
  # Lines that are not "STACK COUNT" are warned about, with file and line.
  expect "junk warning" 0 "^flamediff: warning: $D/edge-before.folded:3: 2 line\\(s\\)" "$D/edge-before.folded" "$D/edge-after.folded"
  # A short perf script file whose one line has no newline is still read as
  # perf script (not as a folded file with an unparsable line).
  printf '\tffffffff8103ce3b native_safe_halt+0xb ([kernel.kallsyms])' > "$T/frame"
  expect "short perf script" 0 '' "$T/frame" "$b"
  grep -q '^ 0 0$' "$T/out" && bad "short perf script read as folded" || ok "short perf script: no empty stack"
  # -n with nothing in the first file: difffolded.pl dies dividing by 0.
  : > "$T/empty"
  expect "-n empty first" 1 'has no samples' -n "$T/empty" "$b"
  [ ! -s "$T/out" ] && ok "-n empty first: no output" || bad "-n empty first printed output"
  expect "empty first, no -n" 0 '' "$T/empty" "$b"
  # Text that is neither perf script nor folded is read as difffolded.pl reads it.
  printf 'this is\nnot a profile at all\n' > "$T/junk"
  expect "junk is folded" 0 'warning: .*junk:1: 2 line' "$T/junk" "$b"
  # --threshold: 3 when a share grew by more than P points. numa -> numa-all
  # renames every frame (_[k]), so the new names grew from 0%.
  expect "threshold exceeded" 3 '^flamediff: error: regression: ' --threshold 5 "$a" "$b"
  grep -q 'had a share that grew by more than the threshold of 5 percentage points' "$T/err" && ok "threshold summary" || { bad "threshold summary"; cat "$T/err"; }
  cmp -s "$T/out" <("$DIFF" "$a" "$b") && ok "threshold keeps the diff output" || bad "threshold changed the output"
  expect "threshold not exceeded" 0 '' --threshold 5 "$a" "$a"
  expect "threshold 100" 0 '' --threshold=100 "$a" "$b"
  expect "report + threshold" 3 'regression' --report --threshold 1 "$a" "$b"
  # perf.data in pipe mode on stdin against its own folded form
  # (perf script | stackcollapse-perf.pl): every stack in both, same counts.
  local PD=$TESTDATA/perf-data/pipe
  if [ -f "$PD/perf.data" ] && [ -f "$PD/default.folded" ]; then
    HOME=/nonexistent "$DIFF" --symfs "$TESTDATA/perf-data/root" --kallsyms "$PD/kallsyms" \
      - "$PD/default.folded" < "$PD/perf.data" > "$T/out" 2> "$T/err"
    if [ $? = 0 ] && [ "$(wc -l < "$T/out")" = "$(wc -l < "$PD/default.folded")" ] &&
       awk '$(NF-1) != $NF { bad = 1 } END { exit bad }' "$T/out"; then
      ok "perf.data on stdin = its folded form"
    else
      bad "perf.data on stdin differs from its folded form:"; head -5 "$T/out" "$T/err"
    fi
  else
    bad "perf.data on stdin: testdata/perf-data/pipe/ lacks perf.data or default.folded"
  fi
  # A closed pipe is not an error.
  # (Inputs large enough that the output overflows the pipe's buffer.)
  local X=$TESTDATA/expected/flamefold/example-perf-stacks-collapsed
  "$DIFF" "$X-none.txt.gz" "$X-all.txt.gz" 2> "$T/err" | head -1 > /dev/null
  st=${PIPESTATUS[0]}
  [ "$st" = 0 ] && [ ! -s "$T/err" ] && ok "closed pipe" || { bad "closed pipe: status $st"; cat "$T/err"; }
}

if [ ! -x "$DIFF" ]; then echo "flamediff not built: $DIFF"; exit 1; fi
case "${1:-golden}" in
  golden) golden; report ;;
  cli) cli ;;
  report) report ;;
  *) echo "usage: $0 [golden|cli|report]"; exit 2 ;;
esac
exit $fail
