#!/bin/bash
# bench-perf-data.sh [SECONDS]: `flamefold perf.data` against `perf script | stackcollapse-perf.pl`
# and `perf script | inferno-collapse-perf` on a fresh system-wide frame-pointer recording,
# `perf record -a -g -F $FREQ` (default 999 Hz) for SECONDS (default 38: about 75,000 samples on 2
# CPUs) while a workload runs on each CPU:
#   SYSWIDE=work (the default): test/progs/work.cc, a compute loop;
#   SYSWIDE=build: g++ compiling three of flamefold's sources over and over, a build host's
#     shape: cc1plus's big symbol table, many short processes, deep stacks.
# PERF_DATA=FILE times FILE instead of recording one. `perf script` alone is timed too, for
# scale. Checks that flamefold folds all of the sample weight to the pipeline's stacks.
# Needs perf and the right to record system-wide (root, or kernel.perf_event_paranoid <= 0); says
# it skipped otherwise. Environment: SYSWIDE, FREQ, PERF_DATA, and lib.sh's.
set -u
secs=${1:-38}
shape=${SYSWIDE:-work}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup perf-data flamefold
command -v perf > /dev/null || { echo "bench-perf-data: perf is not installed: skipped"; exit 0; }
data=${PERF_DATA:-}
if [ -z "$data" ]; then
  data=bench/out/perf-data/$shape.data
  workload=$out/work-$shape
  if [ "$shape" = build ]; then
    {
      echo '#!/bin/sh'
      echo 'trap "pkill -P \$\$; exit" TERM'
      echo 'while :; do'
      for f in collapse/perf_script.cc symbols/symbol_table.cc perfdata/perf_data.cc; do
        echo "  c++ -std=c++20 -O2 -Isrc -I'$BUILD_DIR' -c src/$f -o /dev/null & wait \$! || exit 1"
      done
      echo 'done'
    } > "$workload"
    chmod +x "$workload"
  else
    c++ -O2 -fno-omit-frame-pointer -o "$workload" test/progs/work.cc || exit 1
  fi
  # One workload per CPU: an idle CPU records no cpu-clock samples.
  if ! perf record -q -a -g -F "${FREQ:-999}" -o "$data" -- sh -c "p=; for i in \$(seq $(nproc)); do '$workload' 200000 > /dev/null & p=\"\$p \$!\"; done; sleep $secs; kill \$p 2> /dev/null; wait" 2> "$out/record.log"; then
    echo "bench-perf-data: perf cannot record system-wide here: skipped"
    cat "$out/record.log"
    exit 0
  fi
fi
how="\`perf record -a -g -F ${FREQ:-999}\` for $secs s with the $shape workload on each CPU"
[ -z "${PERF_DATA:-}" ] || how="given as PERF_DATA"
group "flamefold, perf.data, system-wide frame pointers, $shape" "$(recording "$data"), $how"
measure_recording "$data"
finish
