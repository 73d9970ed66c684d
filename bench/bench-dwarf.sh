#!/bin/bash
# bench-dwarf.sh [SCALE]: records a DWARF call graph perf.data (perf record
# --call-graph dwarf: perf's default 8 KB of stack per sample; $FREQ Hz,
# default 4000 as perf record's own) of a three-thread C++ workload, then
# times, in the same run, `perf script -i perf.data > /dev/null` once, then
# $RUNS rounds (default 3) of `flamefold perf.data` and `perf script -i
# perf.data | stackcollapse-perf.pl` (FlameGraph checkout at
# $FLAMEGRAPH_DIR, else /tmp/FlameGraph); then $INLINE_RUNS (default 1; 0
# leaves it out) with --inline.
# WORKLOAD=dyn (the default): testdata/perf-data/dyn.cc built as Debian
# builds programs (dynamically linked against libstdc++ and libc, -O2
# without frame pointers or debug information), `dyncxx SCALE` (default
# 1500000, about 15,000 samples at 4000 Hz here): its frames go through
# the shared libraries' CFI, and libc's separate debug file when libc6-dbg
# is installed. WORKLOAD=static: testdata/perf-data/dwarf.cc as the golden
# tests build it (-O2 -g, static-pie: every frame's CFI in one binary),
# `dwarf threads SCALE` (default 3000, about 60,000 samples; FREQ=1000
# gives a sparse recording of about 12,000).
# DWARF_DATA=FILE times FILE instead of recording one.
# Prints the medians and ranges of the times and ratios (wall and CPU) and
# the share of the sample weight that folds to identical stacks (below 100%
# fails the run). The
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
. "$here/timing.sh"
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
data=${DWARF_DATA:-$out/dwarf.data}
if [ -z "${DWARF_DATA:-}" ] && ! perf record -q -F "${FREQ:-4000}" --call-graph dwarf -o "$out/dwarf.data" \
    "${run[@]}" > /dev/null 2> "$out/record.log"; then
  echo "bench-dwarf: perf cannot record here: skipped"; cat "$out/record.log"; exit 0
fi
samples=$(perf script -i "$data" -F comm 2>/dev/null | wc -l)
echo "recording: $(du -h "$data" | cut -f1), $samples samples; load: $(uptime | sed 's/.*load average: //')"
read -r w c <<< "$(t "perf script -i \"$data\" > /dev/null")"
echo "perf script > /dev/null: $w s wall, $c s CPU"
[ -f "$perl_script" ] || { echo "bench-dwarf: no $perl_script: the pipeline is not timed"; exit 0; }
status=0
compare "dwarf" "$data" || status=1
if [ "${INLINE_RUNS:-1}" -gt 0 ]; then
  echo "== with --inline"
  RUNS=${INLINE_RUNS:-1} compare "dwarf --inline" "$data" --inline || status=1
fi
exit $status
