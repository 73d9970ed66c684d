#!/bin/bash
# bench-dwarf.sh [SCALE]: records a DWARF call graph perf.data (perf record
# --call-graph dwarf: perf's default 8 KB of stack per sample; $FREQ Hz,
# default 4000 as perf record's own) of a three-thread C++ workload, then
# times, in the same run:
# `flamefold perf.data`, `perf script -i perf.data > /dev/null` and
# `perf script -i perf.data | stackcollapse-perf.pl` (FlameGraph checkout at
# $FLAMEGRAPH_DIR, else /tmp/FlameGraph); then the same with --inline.
# WORKLOAD=dyn (the default): testdata/perf-data/dyn.cc built as Debian
# builds programs (dynamically linked against libstdc++ and libc, -O2
# without frame pointers or debug information), `dyncxx SCALE` (default
# 1500000, about 15,000 samples at 4000 Hz here): its frames go through
# the shared libraries' CFI, and libc's separate debug file when libc6-dbg
# is installed. WORKLOAD=static: testdata/perf-data/dwarf.cc as the golden
# tests build it (-O2 -g, static-pie: every frame's CFI in one binary),
# `dwarf threads SCALE` (default 3000, about 60,000 samples; FREQ=1000
# gives a sparse recording of about 12,000).
# Prints the ratios (wall and CPU time) and the share of the sample weight
# that folds to identical stacks (below 99% fails the run). The
# binaries are copied to the output folder first (another build may replace
# them meanwhile). Needs perf and the right to record (root, or
# kernel.perf_event_paranoid <= 1); skips otherwise.
set -u
workload=${WORKLOAD:-dyn}
if [ "$workload" = dyn ]; then scale=${1:-1500000}; else scale=${1:-3000}; fi
here=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$here/../build}
perl_script=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
out=$here/out/dwarf
mkdir -p "$out"
cp "$BUILD_DIR/src/tools/flamefold" "$out/flamefold" || exit 1
fold=$out/flamefold
command -v perf >/dev/null || { echo "bench-dwarf: perf not installed: skipped"; exit 0; }
if [ "$workload" = dyn ]; then
  c++ -O2 -fomit-frame-pointer -pthread -o "$out/dyncxx" \
    "$here/../testdata/perf-data/dyn.cc" || exit 1
  run=("$out/dyncxx" "$scale")
else
  c++ -O2 -g -fomit-frame-pointer -fno-exceptions -static-pie \
    -ffunction-sections -Wl,--gc-sections -o "$out/dwarf" \
    "$here/../testdata/perf-data/dwarf.cc" || exit 1
  run=("$out/dwarf" threads "$scale")
fi
if ! perf record -q -F "${FREQ:-4000}" --call-graph dwarf -o "$out/dwarf.data" \
    "${run[@]}" > /dev/null 2> "$out/record.log"; then
  echo "bench-dwarf: perf cannot record here: skipped"; cat "$out/record.log"; exit 0
fi
samples=$(perf script -i "$out/dwarf.data" -F comm 2>/dev/null | wc -l)
echo "recording: $(du -h "$out/dwarf.data" | cut -f1), about $samples samples"
# t CMD...: wall seconds, then CPU seconds (user + system, children included).
t() {
  /usr/bin/time -f "%e %U %S" -o "$out/time" "$@"
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$out/time"
}
weight() {  # the share of $1's sample weight that $2 folds to the same stacks
  awk 'FNR == NR { n = $NF; sub(/ [0-9]+$/, ""); want[$0] += n; total += n; next }
       { n = $NF; sub(/ [0-9]+$/, ""); got[$0] += n }
       END { for (k in want) same += (got[k] < want[k] ? got[k] : want[k])
             printf "%.2f", total ? 100 * same / total : 100 }' "$1" "$2"
}
ratio() { awk "BEGIN { printf \"%.1f\", $1 / $2 }"; }
status=0
for opts in "" "--inline"; do
  echo "== options: ${opts:-(none)}"
  read -r w_fold c_fold <<< "$(t sh -c "\"$fold\" -q $opts \"$out/dwarf.data\" > \"$out/fold.txt\"")"
  printf 'flamefold perf.data            %6.2f s wall %6.2f s CPU\n' "$w_fold" "$c_fold"
  if [ -z "$opts" ]; then
    read -r w_script c_script <<< "$(t sh -c "perf script -i \"$out/dwarf.data\" > /dev/null 2>&1")"
    printf 'perf script > /dev/null        %6.2f s wall %6.2f s CPU  (flamefold: %.1fx wall, %.1fx CPU)\n' \
      "$w_script" "$c_script" "$(ratio "$w_script" "$w_fold")" "$(ratio "$c_script" "$c_fold")"
  fi
  if [ -f "$perl_script" ]; then
    read -r w_pipe c_pipe <<< "$(t sh -c "perf script -i \"$out/dwarf.data\" 2>/dev/null | perl \"$perl_script\" $opts > \"$out/perl.txt\" 2>/dev/null")"
    printf 'perf script | stackcollapse   %6.2f s wall %6.2f s CPU  (flamefold: %.1fx wall, %.1fx CPU)\n' \
      "$w_pipe" "$c_pipe" "$(ratio "$w_pipe" "$w_fold")" "$(ratio "$c_pipe" "$c_fold")"
    same=$(weight "$out/perl.txt" "$out/fold.txt")
    echo "$same% of the sample weight in identical stacks"
    awk "BEGIN { exit !($same < 99) }" && status=1
  fi
done
exit $status
