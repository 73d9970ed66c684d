#!/bin/bash
# bench-perf-data.sh [SECONDS]: records a system-wide perf.data (frame-pointer
# call graphs at 4000 Hz on every CPU for SECONDS, default 15, while a small
# C++ workload runs on each CPU; at least 100,000 samples on 2 CPUs), then times, in the
# same run: `flamefold perf.data`, `perf script -i perf.data > /dev/null`,
# and `perf script -i perf.data | stackcollapse-perf.pl` (FlameGraph checkout
# at $FLAMEGRAPH_DIR, else /tmp/FlameGraph), checks the folded outputs are
# identical, and prints the ratios. PERF_DATA=FILE times FILE instead of
# recording one. Needs perf and the right to record
# system-wide (root, or kernel.perf_event_paranoid <= 0); skips otherwise.
set -u
secs=${1:-15}
here=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$here/../build}
fold=$BUILD_DIR/src/tools/flamefold
perl_script=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
out=$here/out/perf-data
mkdir -p "$out"
command -v perf >/dev/null || { echo "bench-perf-data: perf not installed: skipped"; exit 0; }
data=${PERF_DATA:-}
if [ -z "$data" ]; then
  data=$out/sys.data
  c++ -O2 -fno-omit-frame-pointer -o "$out/work" "$here/../test/progs/work.cc" || exit 1
  # One workload per CPU: an idle CPU records no cpu-clock samples, so on
  # a quiet machine one workload would give half the samples on 2 CPUs.
  n=$(nproc)
  if ! perf record -q -a -g -F 4000 -o "$data" -- sh -c "p=; for i in \$(seq $n); do \"$out/work\" 200000 >/dev/null & p=\"\$p \$!\"; done; sleep $secs; kill \$p 2>/dev/null; wait" 2>"$out/record.log"; then
    echo "bench-perf-data: perf cannot record system-wide here: skipped"; cat "$out/record.log"; exit 0
  fi
fi
samples=$(perf script -i "$data" -F comm 2>/dev/null | wc -l)
echo "recording: $(du -h "$data" | cut -f1), about $samples samples"
t() { local start=$EPOCHREALTIME; "$@"; awk "BEGIN { printf \"%.3f\", $EPOCHREALTIME - $start }"; }
ratio() { awk "BEGIN { printf \"%.1f\", $1 / $2 }"; }
t_fold=$(t sh -c "\"$fold\" -q \"$data\" > \"$out/fold.txt\"")
t_script=$(t sh -c "perf script -i \"$data\" > /dev/null 2>&1")
printf 'flamefold perf.data            %6.2f s\n' "$t_fold"
printf 'perf script > /dev/null        %6.2f s  (flamefold is %.1fx faster)\n' "$t_script" "$(ratio "$t_script" "$t_fold")"
if [ -f "$perl_script" ]; then
  t_pipe=$(t sh -c "perf script -i \"$data\" 2>/dev/null | perl \"$perl_script\" > \"$out/perl.txt\" 2>/dev/null")
  printf 'perf script | stackcollapse   %6.2f s  (flamefold is %.1fx faster)\n' "$t_pipe" "$(ratio "$t_pipe" "$t_fold")"
  if cmp -s "$out/fold.txt" "$out/perl.txt"; then echo "outputs identical"; else echo "outputs DIFFER"; exit 1; fi
fi
