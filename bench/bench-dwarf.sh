#!/bin/bash
# bench-dwarf.sh [SCALE]: `flamefold perf.data` against `perf script | stackcollapse-perf.pl` and
# `perf script | inferno-collapse-perf` on a fresh `perf record --call-graph dwarf` recording
# (perf's default 8 KB of stack a sample, $FREQ Hz, default 4000 as perf record's own) of a
# three-thread C++ program, then with --inline (inferno has no --inline; $INLINE_RUNS rounds,
# default 1, 0 leaves it out):
#   WORKLOAD=dyn (the default): testdata/perf-data/dyn.cc built as Debian builds programs
#     (dynamically linked against libstdc++ and libc, -O2, no frame pointers, no debug
#     information), `dyncxx SCALE` (default 1500000: about 15,000 samples on a 2-core VM); its
#     frames go through the shared libraries' CFI, and libc's separate debug file when libc6-dbg
#     is installed;
#   WORKLOAD=static: testdata/perf-data/dwarf.cc as the golden tests build it (-O2 -g,
#     static-pie), `dwarf threads SCALE` (default 3000: about 60,000 samples, 500 MB).
# DWARF_DATA=FILE times FILE instead of recording one. Checks that flamefold folds all of the
# sample weight to the pipeline's stacks. Needs perf and the right to record (root, or
# kernel.perf_event_paranoid <= 1); says it skipped otherwise. Environment: WORKLOAD, FREQ,
# DWARF_DATA, INLINE_RUNS, and lib.sh's.
set -u
workload=${WORKLOAD:-dyn}
if [ "$workload" = dyn ]; then scale=${1:-1500000}; else scale=${1:-3000}; fi
inline_runs=${INLINE_RUNS:-1}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup dwarf flamefold
command -v perf > /dev/null || { echo "bench-dwarf: perf is not installed: skipped"; exit 0; }
data=${DWARF_DATA:-}
if [ -z "$data" ]; then
  data=bench/out/dwarf/$workload.data
  if [ "$workload" = dyn ]; then
    c++ -O2 -fomit-frame-pointer -pthread -o "$out/dyncxx" testdata/perf-data/dyn.cc || exit 1
    run=("$out/dyncxx" "$scale")
  else
    c++ -O2 -g -fomit-frame-pointer -fno-exceptions -static-pie -ffunction-sections \
      -Wl,--gc-sections -o "$out/dwarf" testdata/perf-data/dwarf.cc || exit 1
    run=("$out/dwarf" threads "$scale")
  fi
  if ! perf record -q -F "${FREQ:-4000}" --call-graph dwarf -o "$data" "${run[@]}" \
      > /dev/null 2> "$out/record.log"; then
    echo "bench-dwarf: perf cannot record here: skipped"
    cat "$out/record.log"
    exit 0
  fi
fi
how="\`perf record -F ${FREQ:-4000} --call-graph dwarf\` of the $workload workload"
[ -z "${DWARF_DATA:-}" ] || how="given as DWARF_DATA"
about="$(recording "$data"), $how"
group "flamefold, perf.data, --call-graph dwarf, $workload" "$about"
measure_recording "$data"
if [ "$inline_runs" -gt 0 ]; then
  group "flamefold --inline, perf.data, --call-graph dwarf, $workload" "$about"
  RUNS=$inline_runs PERL_RUNS=$inline_runs measure_recording "$data" --inline
fi
finish
