#!/bin/bash
# bench/run.sh: runs every benchmark of bench/ and writes bench/RESULTS.md: the machine, the date,
# the commit, and for every figure the exact command, its wall and CPU time, its peak RSS and its
# ratios to the Perl script and to inferno measured in the same run.
#
# Builds what it needs in BUILD_DIR (default build/, set up in release mode when missing) and,
# when INFERNO_DIR holds no inferno but INFERNO_SRC (default /tmp/inferno) is a checkout of it,
# builds inferno with build-inferno.sh. Without a FlameGraph checkout (FLAMEGRAPH_DIR, default
# /tmp/FlameGraph) or inferno, RESULTS.md says so and those columns stay empty.
#
# Knobs (environment):
#   QUICK=1         small sizes for a check of the whole run in a few minutes
#   SIZE_MB         size of the generated perf script transcripts (default 200; QUICK 16)
#   STACKS          distinct stacks of bench-svg's generated fold (default 100000; QUICK 10000)
#   RECORD_SECONDS  length of the system-wide recordings (default 38; QUICK 5)
#   DWARF_SCALE     bench-dwarf.sh's workload scale (default 1500000; QUICK 150000)
#   RUNS, PERL_RUNS timed rounds per command, and at most for the Perl scripts (default 5 and 3;
#                   QUICK 2 and 1)
#   CLICKS          clicks per SVG in bench-zoom (default 9; QUICK 3)
#   ONLY            names of the benchmarks to run (default all: see the list below)
#   RESULTS         the file written (default bench/RESULTS.md)
# Exit status: 0 when every benchmark ran and passed its checks, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root" || exit 1
if [ "${QUICK:-0}" = 1 ]; then
  : "${SIZE_MB:=16}" "${STACKS:=10000}" "${RECORD_SECONDS:=5}" "${DWARF_SCALE:=150000}"
  : "${RUNS:=2}" "${PERL_RUNS:=1}" "${CLICKS:=3}"
fi
export SIZE_MB=${SIZE_MB:-200} RUNS=${RUNS:-5} PERL_RUNS=${PERL_RUNS:-3} CLICKS=${CLICKS:-9}
STACKS=${STACKS:-100000}
RECORD_SECONDS=${RECORD_SECONDS:-38}
DWARF_SCALE=${DWARF_SCALE:-1500000}
export BUILD_DIR=${BUILD_DIR:-$root/build}
export FLAMEGRAPH_DIR=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}
export INFERNO_DIR=${INFERNO_DIR:-$root/bench/out/inferno}
INFERNO_SRC=${INFERNO_SRC:-/tmp/inferno}
RESULTS=${RESULTS:-$root/bench/RESULTS.md}

# The benchmarks: name, then the command run.sh runs (from the root).
benches=(
  fold-mixed          "bench/bench-fold.sh $SIZE_MB"
  fold-cxx-service    "SHAPE=cxx-service bench/bench-fold.sh $SIZE_MB"
  fold-distinct-names "SHAPE=distinct-names bench/bench-fold.sh $SIZE_MB"
  svg-stacks          "bench/bench-svg.sh $STACKS"
  svg-cxx-service     "bench/bench-svg.sh cxx-service"
  exports             "bench/bench-exports.sh"
  zoom                "bench/bench-zoom.sh"
  scope               "bench/bench-scope.sh"
  perf-data-work      "bench/bench-perf-data.sh $RECORD_SECONDS"
  perf-data-build     "SYSWIDE=build bench/bench-perf-data.sh $RECORD_SECONDS"
  dwarf               "bench/bench-dwarf.sh $DWARF_SCALE"
  symbol-load         "$BUILD_DIR/bench/symbol_load"
)

logs=$root/bench/out/logs
rm -rf "$logs"
mkdir -p "$logs"
facts=$logs/facts.tsv
export BENCH_RESULTS=$logs/results.tsv
: > "$BENCH_RESULTS"
fact() { printf '%s\t%s\n' "$1" "$2" >> "$facts"; }
# The tree's state before anything is written: bench/RESULTS.md itself does not count.
fact dirty "$(git status --porcelain --untracked-files=no -- . ":!bench/RESULTS.md" | wc -l)"

echo "run: building in $BUILD_DIR ..."
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  meson setup "$BUILD_DIR" --buildtype=release > "$logs/build.log" 2>&1 ||
    { echo "run: error: meson setup failed (bench/out/logs/build.log)" >&2; exit 1; }
fi
ninja -C "$BUILD_DIR" src/tools/flamefold src/tools/flamesvg src/tools/flamescope bench/symbol_load >> "$logs/build.log" 2>&1 ||
  { echo "run: error: the build failed (bench/out/logs/build.log)" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. "$here/lib.sh"
if ! have_inferno; then
  if [ -f "$INFERNO_SRC/Cargo.toml" ]; then
    echo "run: building inferno from $INFERNO_SRC ..."
    "$here/build-inferno.sh" "$INFERNO_SRC" "$INFERNO_DIR" \
      > "$logs/inferno.log" 2>&1 ||
      fact inferno_missing "build-inferno.sh failed on $INFERNO_SRC: $(tail -n 3 "$logs/inferno.log" | tr '\n' ' ')"
  else
    fact inferno_missing "no inferno-collapse-perf and inferno-flamegraph in $INFERNO_DIR, and no checkout at $INFERNO_SRC to build them from"
  fi
fi
if have_inferno; then
  fact inferno "$(cat "$INFERNO_DIR/version" 2> /dev/null || echo 'a build of unknown version') in ${INFERNO_DIR#"$root"/}"
fi
if have_perl stackcollapse-perf.pl; then
  fact perl "$FLAMEGRAPH_DIR at $(git -C "$FLAMEGRAPH_DIR" log -1 --format=%h 2> /dev/null || echo 'an unknown commit'), $(perl -e 'print "perl $^V"')"
else
  fact perl_missing "no FlameGraph checkout at $FLAMEGRAPH_DIR"
fi

fact date "$(date -u '+%Y-%m-%d %H:%M UTC')"
fact cpu "$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(grep -c '^processor' /proc/cpuinfo) logical CPUs ($(nproc) usable)"
fact memory "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
fact kernel "$(uname -sr)"
fact commit "$(git describe --always --dirty 2> /dev/null) ($(git rev-parse HEAD))"
fact build "${BUILD_DIR#"$root"/}: $(meson introspect "$BUILD_DIR" --buildoptions 2> /dev/null |
  python3 -c 'import json, sys; print("buildtype " + next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))' 2> /dev/null ||
  echo 'buildtype unknown'), $(c++ --version | head -n 1)"
fact flamefold "$("$BUILD_DIR/src/tools/flamefold" --version | head -n 1)"
fact perf "$(perf --version 2> /dev/null || echo 'not installed'); kernel.perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid), run as $(id -un)"
fact settings "SIZE_MB=$SIZE_MB STACKS=$STACKS RECORD_SECONDS=$RECORD_SECONDS DWARF_SCALE=$DWARF_SCALE RUNS=$RUNS PERL_RUNS=$PERL_RUNS CLICKS=$CLICKS"
fact load_start "$(cut -d' ' -f1-3 /proc/loadavg)"

status=0
for ((i = 0; i < ${#benches[@]}; i += 2)); do
  name=${benches[i]} command=${benches[i + 1]}
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
  echo "run: $name: $command"
  start=$(date +%s)
  bash -c "$command" > "$logs/$name.log" 2>&1
  code=$?
  [ $code = 0 ] || status=1
  printf 'RUN\t%s\t%s\t%s\t%s\n' "$name" "$code" "$(( $(date +%s) - start ))" "$command" >> "$BENCH_RESULTS"
done
fact load_end "$(cut -d' ' -f1-3 /proc/loadavg)"

if ! python3 "$here/results.py" "$facts" "$BENCH_RESULTS" "$logs" > "$RESULTS.tmp"; then
  echo "run: error: could not write $RESULTS" >&2
  exit 1
fi
mv "$RESULTS.tmp" "$RESULTS"
echo "run: wrote ${RESULTS#"$root"/}"
exit $status
