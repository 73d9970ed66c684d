#!/bin/bash
# bench-svg.sh [STACKS]: flamesvg vs flamegraph.pl on a generated folded file
# of STACKS distinct stacks (default 100000, about 16 MB; depth 5-40 over 3000
# names, shared prefixes, sorted as flamefold writes it). Prints
# the time and peak RSS of both in the same run, and the ratios; checks the
# two graphs have the same frames. Needs /usr/bin/time; flamegraph.pl from
# FLAMEGRAPH_PL (default /tmp/FlameGraph/flamegraph.pl; skipped if absent).
set -eu
stacks=${1:-100000}
BUILD_DIR=${BUILD_DIR:-build}
SVG=$BUILD_DIR/src/tools/flamesvg
PERL_FG=${FLAMEGRAPH_PL:-/tmp/FlameGraph/flamegraph.pl}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
python3 - "$stacks" > "$TMP/in.folded" <<'PY'
import random, sys
n = int(sys.argv[1])
rng = random.Random(42)
names = ["f%d_%s" % (i, "x" * rng.randrange(0, 6)) for i in range(3000)]
seen = set()
lines = []
while len(lines) < n:
    depth = rng.randrange(5, 41)
    # Shared prefixes, as real profiles have: the first frames come from a
    # small set.
    stack = [names[rng.randrange(0, 8 + 4 * d)] for d in range(depth)]
    s = ";".join(stack)
    if s in seen:
        continue
    seen.add(s)
    lines.append("%s %d" % (s, rng.randrange(1, 1000)))
lines.sort()
sys.stdout.write("\n".join(lines) + "\n")
PY
size=$(du -m "$TMP/in.folded" | cut -f1)
echo "input: $stacks distinct stacks, ${size} MB (sorted, as flamefold writes it)"
measure() {  # measure LABEL CMD...: prints seconds and peak RSS in MB
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$TMP/time.$label" "$@" > "$TMP/$label.svg" 2>/dev/null || true
  read -r secs kb < "$TMP/time.$label"
  echo "$label: ${secs} s, $((kb / 1024)) MB peak RSS"
  eval "${label}_s=$secs; ${label}_kb=$kb"
}
measure flamesvg "$SVG" "$TMP/in.folded"
measure flamesvg_stdin sh -c "'$SVG' < '$TMP/in.folded'"
sort -R --random-source=<(yes) "$TMP/in.folded" > "$TMP/shuffled.folded"
measure flamesvg_unsorted "$SVG" "$TMP/shuffled.folded"
if [ -f "$PERL_FG" ]; then
  measure perl perl "$PERL_FG" "$TMP/in.folded"
  python3 - "$perl_s" "$flamesvg_s" "$perl_kb" "$flamesvg_kb" <<'PY'
import sys
ps, fs, pk, fk = map(float, sys.argv[1:])
print("speed-up: %.1fx   memory: %.1fx less" % (ps / max(fs, 0.01), pk / max(fk, 1)))
PY
  # The frame-by-frame comparison the golden tests use.
  python3 "$(dirname "$0")/../test/golden/svgframes.py" "$TMP/flamesvg.svg" \
    "$TMP/perl.svg"
else
  echo "flamegraph.pl not found at $PERL_FG: no comparison"
fi
