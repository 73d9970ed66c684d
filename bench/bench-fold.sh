#!/bin/bash
# bench-fold.sh [SIZE_MB]: throughput and peak memory of flamefold, and of stackcollapse-perf.pl
# when a FlameGraph checkout is found ($FLAMEGRAPH_DIR, else /tmp/FlameGraph), on one synthetic
# perf script transcript of SIZE_MB megabytes (default 200) made by gen-perf-script.py into
# bench/out/ (kept for the next run). Checks that every run prints the same bytes, then folds the
# file named 10 times (a 10x larger input) to show that peak RSS does not grow with input size.
#
# With INFERNO_DIR (a directory holding inferno-collapse-perf: build-inferno.sh makes one), times
# inferno-collapse-perf as it runs by default (a thread per core) in the same run, alternated run
# by run with flamefold by default.
#
# Environment: BUILD_DIR (default: build next to bench/), FLAMEGRAPH_DIR, SEED (default 1),
# SHAPE (gen-perf-script.py's --shape: mixed, the default, cxx-service or distinct-names),
# RUNS (flamefold runs per figure, default 5: the median is reported), SKIP_PERL=1 to leave the
# Perl script out (it takes minutes).
# Exit status: 0 when all outputs agree, 1 otherwise.
set -u
SIZE_MB=${1:-200}
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$HERE/../build}
FOLD=$BUILD_DIR/src/tools/flamefold
PERL_SCRIPT=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
SEED=${SEED:-1}
SHAPE=${SHAPE:-mixed}
OUT=$HERE/out
INPUT=$OUT/perf-script-${SIZE_MB}MB-seed$SEED.txt
[ "$SHAPE" = mixed ] || INPUT=$OUT/perf-script-$SHAPE-${SIZE_MB}MB-seed$SEED.txt

if [ ! -x "$FOLD" ]; then
  echo "bench-fold: error: $FOLD is not built" >&2
  exit 1
fi
mkdir -p "$OUT"
TMP=$(mktemp -d "$OUT/run.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cp "$FOLD" "$TMP/flamefold"
FOLD=$TMP/flamefold

if [ ! -s "$INPUT" ]; then
  echo "generating $INPUT ..."
  python3 "$HERE/gen-perf-script.py" --size-mb "$SIZE_MB" --seed "$SEED" --shape "$SHAPE" -o "$INPUT.tmp" &&
    mv "$INPUT.tmp" "$INPUT" || { echo "bench-fold: error: generation failed" >&2; exit 1; }
fi
BYTES=$(stat -c %s "$INPUT")
cat "$INPUT" > /dev/null  # into the page cache, so runs measure folding, not the disk

# Measure NAME INPUT_BYTES OUTPUT COMMAND...: runs COMMAND with stdout to OUTPUT and records wall
# time, user+system CPU time and peak RSS in $TMP/NAME.stats as "wall cpu rss_kb".
Measure() {
  local name=$1 bytes=$2 output=$3
  shift 3
  # A fresh file each run: truncating the last run's output would be timed
  # too, and ext4 then flushes the rewritten file when it is closed
  # (auto_da_alloc), at the exit of the command timed.
  if [ -f "$output" ]; then rm -f "$output"; fi
  if [ -x /usr/bin/time ]; then
    # Wall time from the clock in ns (time's %e has 10 ms steps, 7% of a run).
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/$name.time" "$@" > "$output" 2> "$TMP/$name.err"
    local status=$?
    t1=$(date +%s%N)
    read -r wall user sys rss < <(tail -n 1 "$TMP/$name.time")
    wall=$(echo "scale=4; ($t1 - $t0) / 1000000000" | bc)
    echo "$wall $(echo "$user + $sys" | bc) $rss" > "$TMP/$name.stats"
  else
    python3 - "$TMP/$name.stats" "$output" "$@" <<'PY'
import resource, subprocess, sys, time
stats, output, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t = time.monotonic()
with open(output, "wb") as out:
    status = subprocess.run(cmd, stdout=out, stderr=subprocess.DEVNULL).returncode
wall = time.monotonic() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
open(stats, "w").write("%.4f %.2f %d\n" % (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
sys.exit(status)
PY
    local status=$?
  fi
  if [ $status -ne 0 ]; then
    echo "bench-fold: error: $name exited with status $status" >&2
    sed -n 1,5p "$TMP/$name.err" >&2
    failed=1
  fi
  Report "$name" "$bytes" ""
}

# Report NAME BYTES NOTE: prints the figures of $TMP/NAME.stats.
Report() {
  local name=$1 bytes=$2 note=$3 wall cpu rss
  read -r wall cpu rss < "$TMP/$name.stats"
  printf "%-28s %8.3f s wall %8.2f s cpu %9.1f MiB/s %8.1f MiB peak RSS%s\n" "$name" "$wall" "$cpu" \
    "$(echo "$bytes / 1048576 / ($wall + 0.0001)" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$note"
}

# MeasureMedian NAME BYTES OUTPUT COMMAND...: Measure, RUNS times (default 5; a
# shared VM's timings vary by tens of percent from run to run); NAME.stats
# keeps the run of median wall time, and the line gives the fastest too.
MeasureMedian() {
  local name=$1 bytes=$2 output=$3 k
  shift 3
  local runs=${RUNS:-5}
  for k in $(seq "$runs"); do
    Measure "$name#$k" "$bytes" "$output" "$@" > /dev/null
  done
  local fastest
  fastest=$(printf "%.3f" "$(cat "$TMP/$name#"*.stats | cut -d' ' -f1 | sort -n | head -n 1)")
  KeepMedian "$name" "$runs"
  Report "$name" "$bytes" " (median of $runs; fastest $fastest s)"
}

# KeepMedian NAME RUNS: NAME.stats becomes the run of NAME#1..RUNS with the
# median wall time.
KeepMedian() {
  local name=$1 runs=$2 median
  median=$(for k in $(seq "$runs"); do echo "$(cut -d' ' -f1 "$TMP/$name#$k.stats") $k"; done |
    sort -n | sed -n "$(( (runs + 1) / 2 ))p" | cut -d' ' -f2)
  cp "$TMP/$name#$median.stats" "$TMP/$name.stats"
}

Wall() { cut -d' ' -f1 "$TMP/$1.stats"; }
Rss() { cut -d' ' -f3 "$TMP/$1.stats"; }

failed=0
MB=$(echo "$BYTES / 1048576" | bc -l)
printf "input: %s (%.1f MiB, %d distinct folded stacks)\n" "$INPUT" "$MB" \
  "$("$FOLD" -q "$INPUT" | wc -l)"
printf "flamefold %s; %s; %d cores\n" "$("$FOLD" --version | head -n 1)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')" "$(nproc)"

MeasureMedian "flamefold --jobs 1" "$BYTES" "$TMP/fold1.txt" "$FOLD" -q --jobs 1 "$INPUT"
MeasureMedian "flamefold --jobs 1, to null" "$BYTES" /dev/null "$FOLD" -q --jobs 1 "$INPUT"
MeasureMedian "flamefold --jobs 2" "$BYTES" "$TMP/fold2.txt" "$FOLD" -q --jobs 2 "$INPUT"
cmp -s "$TMP/fold1.txt" "$TMP/fold2.txt" || { echo "MISMATCH: --jobs 2 output differs from --jobs 1"; failed=1; }
# No --jobs: one thread per core, at most 4.
MeasureMedian "flamefold (default jobs)" "$BYTES" "$TMP/fold-default.txt" "$FOLD" -q "$INPUT"
cmp -s "$TMP/fold1.txt" "$TMP/fold-default.txt" || { echo "MISMATCH: default output differs from --jobs 1"; failed=1; }
MeasureMedian "flamefold --all --jobs 1" "$BYTES" "$TMP/fold-all.txt" "$FOLD" -q --all --jobs 1 "$INPUT"

# Ten operands: a 10x larger input folded in the memory of its distinct stacks.
ten=()
for _ in 1 2 3 4 5 6 7 8 9 10; do ten+=("$INPUT"); done
MeasureMedian "flamefold 10x --jobs 1" "$((BYTES * 10))" "$TMP/fold10.txt" "$FOLD" -q --jobs 1 "${ten[@]}"
python3 - "$TMP/fold1.txt" "$TMP/fold10.txt" <<'PY' || { echo "MISMATCH: 10x output is not 10 times the counts"; failed=1; }
import sys
def Read(path):
    with open(path, "rb") as f:
        return [line.rstrip(b"\n").rsplit(b" ", 1) for line in f]
one, ten = Read(sys.argv[1]), Read(sys.argv[2])
ok = len(one) == len(ten) and all(a[0] == b[0] and int(a[1]) * 10 == int(b[1]) for a, b in zip(one, ten))
sys.exit(0 if ok else 1)
PY
MeasureMedian "flamefold 10x (default jobs)" "$((BYTES * 10))" "$TMP/fold10d.txt" "$FOLD" -q "${ten[@]}"
cmp -s "$TMP/fold10.txt" "$TMP/fold10d.txt" || { echo "MISMATCH: 10x default output differs from --jobs 1"; failed=1; }
echo "peak RSS: $(( $(Rss "flamefold --jobs 1") / 1024 )) MiB for 1x, $(( $(Rss "flamefold 10x --jobs 1") / 1024 )) MiB for 10x the input (--jobs 1);" \
  "$(( $(Rss "flamefold (default jobs)") / 1024 )) and $(( $(Rss "flamefold 10x (default jobs)") / 1024 )) MiB by default"

if [ -n "${INFERNO_DIR:-}" ]; then
  INFERNO=$INFERNO_DIR/inferno-collapse-perf
  if [ -x "$INFERNO" ]; then
    # The two alternated, run by run, so that the host's changing state
    # weighs on both alike.
    for k in $(seq "${RUNS:-5}"); do
      Measure "alt flamefold#$k" "$BYTES" "$TMP/fold-alt.txt" "$FOLD" -q "$INPUT" > /dev/null
      Measure "inferno-collapse-perf#$k" "$BYTES" "$TMP/inferno.txt" "$INFERNO" "$INPUT" > /dev/null
    done
    for name in "alt flamefold" inferno-collapse-perf; do
      KeepMedian "$name" "${RUNS:-5}"
      Report "$name" "$BYTES" " (median of ${RUNS:-5}, alternated)"
    done
    # inferno does not follow every rule of the Perl script; how far its lines agree:
    echo "inferno-collapse-perf: $(comm -12 <(LC_ALL=C sort "$TMP/inferno.txt") \
      <(LC_ALL=C sort "$TMP/fold1.txt") | wc -l) of $(wc -l < "$TMP/fold1.txt") lines as flamefold's"
    printf "speed-up over inferno-collapse-perf: %.1fx (flamefold by default, alternated with it)\n" \
      "$(echo "$(Wall inferno-collapse-perf) / ($(Wall "alt flamefold") + 0.0001)" | bc -l)"
  else
    echo "bench-fold: warning: no $INFERNO" >&2
  fi
fi

if [ "${SKIP_PERL:-0}" != 1 ] && [ -f "$PERL_SCRIPT" ]; then
  Measure "stackcollapse-perf.pl" "$BYTES" "$TMP/perl.txt" perl "$PERL_SCRIPT" "$INPUT"
  if cmp -s "$TMP/perl.txt" "$TMP/fold1.txt"; then
    echo "flamefold output is byte-identical to stackcollapse-perf.pl's"
  else
    echo "MISMATCH: flamefold and stackcollapse-perf.pl outputs differ:"
    diff "$TMP/perl.txt" "$TMP/fold1.txt" | head -n 10
    failed=1
  fi
  printf "speed-up over stackcollapse-perf.pl: %.1fx (--jobs 1), %.1fx (--jobs 2), %.1fx (default)\n" \
    "$(echo "$(Wall stackcollapse-perf.pl) / ($(Wall "flamefold --jobs 1") + 0.0001)" | bc -l)" \
    "$(echo "$(Wall stackcollapse-perf.pl) / ($(Wall "flamefold --jobs 2") + 0.0001)" | bc -l)" \
    "$(echo "$(Wall stackcollapse-perf.pl) / ($(Wall "flamefold (default jobs)") + 0.0001)" | bc -l)"
else
  echo "stackcollapse-perf.pl not run (no $PERL_SCRIPT, or SKIP_PERL=1)"
fi
[ $failed -eq 0 ]
