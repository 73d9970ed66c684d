#!/bin/bash
# bench-perf-data.sh [SECONDS]: the two perf.data benchmarks of the README in
# one run, each against `perf script | stackcollapse-perf.pl` (FlameGraph
# checkout at $FLAMEGRAPH_DIR, else /tmp/FlameGraph):
#  1. a system-wide frame-pointer recording, `perf record -a -g -F $FREQ`
#     (default 999 Hz) for SECONDS (default 38: about 75,000 samples on 2
#     CPUs) while test/progs/work.cc runs on each CPU (SYSWIDE=build: while
#     g++ compiles flamefold's sources on each CPU, a build host's shape);
#     PERF_DATA=FILE times FILE instead of recording one;
#  2. bench-dwarf.sh: a --call-graph dwarf recording of a dynamically linked
#     C++ program (about 15,000 samples; SKIP_DWARF=1 leaves it out).
# Each is timed $RUNS times (default 3), flamefold and the pipeline one after
# the other; the medians and ranges of the times and ratios are printed, and
# the share of the sample weight folded to identical stacks (below 100%
# fails). `perf script > /dev/null` is timed once, for scale. Needs perf and
# the right to record system-wide (root, or kernel.perf_event_paranoid <= 0);
# skips otherwise. The machine should be otherwise idle: `uptime` is printed.
set -u
secs=${1:-38}
here=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$here/../build}
perl_script=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
out=$here/out/perf-data
mkdir -p "$out"
. "$here/timing.sh"
cp "$BUILD_DIR/src/tools/flamefold" "$out/flamefold" || exit 1
fold=$out/flamefold
command -v perf >/dev/null || { echo "bench-perf-data: perf not installed: skipped"; exit 0; }
[ -f "$perl_script" ] || { echo "bench-perf-data: no $perl_script: skipped"; exit 0; }
data=${PERF_DATA:-}
if [ -z "$data" ]; then
  data=$out/sys.data
  c++ -O2 -fno-omit-frame-pointer -o "$out/work" "$here/../test/progs/work.cc" || exit 1
  # One workload per CPU: an idle CPU records no cpu-clock samples, so on
  # a quiet machine one workload would give half the samples on 2 CPUs.
  # SYSWIDE=build: the host compiles instead (g++ on flamefold's own
  # sources, over and over), so that a big C++ binary (cc1plus), many short
  # processes and deep stacks are recorded.
  if [ "${SYSWIDE:-work}" = build ]; then
    data=$out/build.data
    src=$here/../src
    {
      echo '#!/bin/sh'
      echo 'trap "pkill -P \$\$; exit" TERM'
      echo 'while :; do'
      for f in collapse/perf_script.cc symbols/symbol_table.cc perfdata/perf_data.cc; do
        echo "  c++ -std=c++20 -O2 -I'$src' -I'$BUILD_DIR' -c '$src/$f' -o /dev/null & wait \$! || exit 1"
      done
      echo 'done'
    } > "$out/work"
    chmod +x "$out/work"
  fi
  n=$(nproc)
  if ! perf record -q -a -g -F "${FREQ:-999}" -o "$data" -- sh -c "p=; for i in \$(seq $n); do \"$out/work\" 200000 >/dev/null & p=\"\$p \$!\"; done; sleep $secs; kill \$p 2>/dev/null; wait" 2>"$out/record.log"; then
    echo "bench-perf-data: perf cannot record system-wide here: skipped"; cat "$out/record.log"; exit 0
  fi
fi
samples=$(perf script -i "$data" -F comm 2>/dev/null | wc -l)
echo "== system-wide frame-pointer recording: $(du -h "$data" | cut -f1), $samples samples; load: $(uptime | sed 's/.*load average: //')"
read -r w c <<< "$(t "perf script -i \"$data\" > /dev/null")"
echo "perf script > /dev/null: $w s wall, $c s CPU"
status=0
compare "system-wide frame pointers" "$data" | tee "$out/summary.txt"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
if [ -z "${SKIP_DWARF:-}" ]; then
  echo "== --call-graph dwarf recording (bench-dwarf.sh)"
  "$here/bench-dwarf.sh" | tee -a "$out/summary.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
echo "== summary"
grep -E '^(system-wide|dwarf).*x wall' "$out/summary.txt"
exit $status
