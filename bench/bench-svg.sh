#!/bin/bash
# bench-svg.sh [STACKS | cxx-service]: flamesvg vs flamegraph.pl on one folded
# file, in the same run.
#   STACKS (default 100000): a generated file of STACKS distinct stacks
#     (about 16 MB; depth 5-40 over 3000 short names, shared prefixes, sorted
#     as flamefold writes it).
#   cxx-service: the fold of the 200 MiB transcript shaped like large C++
#     services (60 MB, 74,557 stacks of long template names; corpus.sh makes
#     it in bench/out/ with flamefold, once).
# Prints flamesvg's time (median and range of $RUNS runs, default 5) and
# peak RSS, the same from standard input (a pipe, as in `flamefold | flamesvg`,
# and a redirected file) and on the lines shuffled, one run
# of flamegraph.pl ($PERL_RUNS, default 1), the ratios, and checks the two
# graphs have the same frames. BASELINE=path/to/flamesvg times another build
# (say main's) the same way, in the same run, for a before/after (file and
# pipe).
# INFERNO_DIR (a directory holding inferno-flamegraph: build-inferno.sh makes
# one) times inferno-flamegraph in the same run, alternated run by run with
# flamesvg, with --minwidth set to draw the frames flamegraph.pl draws.
# Needs /usr/bin/time; flamegraph.pl from FLAMEGRAPH_PL (default
# /tmp/FlameGraph/flamegraph.pl; skipped if absent).
set -eu
corpus=${1:-100000}
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$HERE/../build}
RUNS=${RUNS:-5}
PERL_RUNS=${PERL_RUNS:-1}
PERL_FG=${FLAMEGRAPH_PL:-/tmp/FlameGraph/flamegraph.pl}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# Copies, so that a build running meanwhile cannot change them between runs.
cp "$BUILD_DIR/src/tools/flamesvg" "$TMP/flamesvg"
SVG=$TMP/flamesvg
if [ -n "${BASELINE:-}" ]; then cp "$BASELINE" "$TMP/baseline"; fi
. "$HERE/corpus.sh"

if [ "$corpus" = cxx-service ]; then
  input=$(cxx_service_fold "$HERE/out" "$BUILD_DIR/src/tools/flamefold")
  echo "input: $input ($(wc -l < "$input") stacks, $(du -m "$input" | cut -f1) MB)"
else
  input=$TMP/in.folded
  python3 - "$corpus" > "$input" <<'PY'
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
  echo "input: $corpus distinct stacks, $(du -m "$input" | cut -f1) MB (sorted, as flamefold writes it)"
fi
cat "$input" > /dev/null  # into the page cache

# measure LABEL RUNS CMD...: runs CMD (stdout to $TMP/LABEL.svg) RUNS times;
# prints the median and range of the wall time (from the clock in
# nanoseconds) and the largest peak RSS; sets LABEL_s to the median and
# LABEL_kb to the RSS.
measure() {
  local label=$1 runs=$2 i start end kb rss=0 times=()
  shift 2
  for i in $(seq "$runs"); do
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$TMP/rss" "$@" > "$TMP/$label.svg" 2>/dev/null || true
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
    read -r kb < "$TMP/rss"
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  local summary
  summary=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 }
    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%.3f %.3f %.3f", m / 1000, v[1] / 1000, v[NR] / 1000 }')
  read -r med lo hi <<< "$summary"
  if [ "$runs" -gt 1 ]; then
    echo "$label: ${med} s (${lo}-${hi} s, median of $runs), $((rss / 1024)) MB peak RSS"
  else
    echo "$label: ${med} s, $((rss / 1024)) MB peak RSS"
  fi
  eval "${label}_s=$med; ${label}_kb=$rss"
}
measure flamesvg "$RUNS" "$SVG" "$input"
if [ -n "${BASELINE:-}" ]; then
  measure baseline "$RUNS" "$TMP/baseline" "$input"
  cmp -s "$TMP/baseline.svg" "$TMP/flamesvg.svg" &&
    echo "baseline: the same SVG" || echo "baseline: the SVGs differ"
fi
measure flamesvg_pipe "$RUNS" sh -c "cat '$input' | '$SVG'"
if [ -n "${BASELINE:-}" ]; then
  measure baseline_pipe "$RUNS" sh -c "cat '$input' | '$TMP/baseline'"
fi
measure flamesvg_stdin_file "$RUNS" sh -c "'$SVG' < '$input'"
sort -R --random-source=<(yes) "$input" > "$TMP/shuffled.folded"
measure flamesvg_unsorted "$RUNS" "$SVG" "$TMP/shuffled.folded"
if [ -n "${INFERNO_DIR:-}" ]; then
  if [ -x "$INFERNO_DIR/inferno-flamegraph" ]; then
    # The two alternated, run by run, so that the host's changing state
    # weighs on both alike.
    for i in $(seq "$RUNS"); do
      measure alt_flamesvg 1 "$SVG" "$input" > /dev/null
      echo "$alt_flamesvg_s" >> "$TMP/alt_flamesvg.times"
      # inferno's --minwidth is a percentage (default 0.01); flamegraph.pl's
      # 0.1 pixel of the 1180 the frames span is 0.1 / 1180 * 100 percent:
      # the same frames are drawn.
      measure inferno 1 "$INFERNO_DIR/inferno-flamegraph" \
        --minwidth 0.00847457627118644 "$input" > /dev/null
      echo "$inferno_s" >> "$TMP/inferno.times"
      [ "$inferno_kb" -gt "${inferno_peak:-0}" ] && inferno_peak=$inferno_kb
    done
    echo "frames drawn: flamesvg $(grep -o '<rect' "$TMP/alt_flamesvg.svg" | wc -l)," \
      "inferno-flamegraph $(grep -o '<rect' "$TMP/inferno.svg" | wc -l) (each counts its background)"
    python3 - "$TMP/alt_flamesvg.times" "$TMP/inferno.times" "$inferno_peak" "$flamesvg_kb" <<'PY'
import statistics, sys
ours = [float(x) for x in open(sys.argv[1])]
theirs = [float(x) for x in open(sys.argv[2])]
print("alternated %d runs each: flamesvg %.3f s (%.3f-%.3f s), inferno-flamegraph %.3f s (%.3f-%.3f s), %d MB peak RSS"
      % (len(ours), statistics.median(ours), min(ours), max(ours), statistics.median(theirs),
         min(theirs), max(theirs), int(sys.argv[3]) // 1024))
print("speed-up over inferno-flamegraph: %.1fx (medians)   memory: %.1fx less"
      % (statistics.median(theirs) / max(statistics.median(ours), 0.001),
         float(sys.argv[3]) / max(float(sys.argv[4]), 1)))
PY
  else
    echo "no $INFERNO_DIR/inferno-flamegraph: inferno not timed"
  fi
fi
if [ -f "$PERL_FG" ]; then
  measure perl "$PERL_RUNS" perl "$PERL_FG" "$input"
  python3 - "$perl_s" "$flamesvg_s" "$perl_kb" "$flamesvg_kb" "${baseline_s:-}" <<'PY'
import sys
perl, ours, perl_kb, ours_kb = map(float, sys.argv[1:5])
print("speed-up: %.1fx flamegraph.pl   memory: %.1fx less"
      % (perl / max(ours, 0.001), perl_kb / max(ours_kb, 1)))
if sys.argv[5]:
    base = float(sys.argv[5])
    print("baseline: %.1fx flamegraph.pl; flamesvg %.2fx the baseline"
          % (perl / max(base, 0.001), base / max(ours, 0.001)))
PY
  # The frame-by-frame comparison the golden tests use.
  python3 "$HERE/../test/golden/svgframes.py" "$TMP/flamesvg.svg" "$TMP/perl.svg"
else
  echo "flamegraph.pl not found at $PERL_FG: no comparison"
fi
