#!/bin/bash
# The off-CPU expectations of the perf.data cases (CASE/off-cpu*.folded,
# made by testdata/perf-data/record.sh offcpu) against the reference that
# made them, test/golden/offcpu_reference.py, run again on the perf script
# text kept in CASE/off-cpu/script.txt.gz: each NAME.folded must come out
# the same, NAME's options given to the reference as it takes them
# ("off-cpu-state=S" as --state S, "off-cpu-unit=ns" as --unit ns,
# "off-cpu-min-us=N" as --min-us N, "on-off" as --on-off, any other but
# "off-cpu" to the collapse, "tid" as --tid).
# The reference names the stacks with flamefold's fold of perf script text
# (--collapse), and also with stackcollapse-perf.pl, which made the files,
# when it is there (FLAMEGRAPH_DIR, default /tmp/FlameGraph). Then the
# off-CPU time of each function the program names must be within 5% of the
# time it measured of its own blocking (program.txt).
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
: "${TESTDATA:?TESTDATA must be set (meson test sets it)}"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/same.sh"
. "$here/../missing.sh"
ff=$BUILD_DIR/src/tools/flamefold
golden_start offcpu-reference "$ff"
[ $python = 1 ] || missing "python3 (apt-get install python3)"
collapses=("$ff")
perl_script=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
[ -f "$perl_script" ] && command -v perl > /dev/null &&
  collapses+=("perl $perl_script")
reference=$here/offcpu_reference.py

for dir in "$TESTDATA"/perf-data/*/off-cpu/; do
  c=$(basename "$(dirname "$dir")")
  for want in "$dir"/../off-cpu*.folded; do
    name=$(basename "$want" .folded)
    opts=() collapse_opts=()
    IFS=+ read -ra parts <<< "$name"
    for p in "${parts[@]}"; do
      case $p in
        off-cpu) ;;
        off-cpu-state=*) opts+=(--state "${p#*=}") ;;
        off-cpu-unit=*) opts+=(--unit "${p#*=}") ;;
        off-cpu-min-us=*) opts+=(--min-us "${p#*=}") ;;
        on-off) opts+=(--on-off) ;;
        time-range=*) opts+=(--time-range "${p#*=}") ;;
        *) collapse_opts+=("--$p") ;;
      esac
    done
    for collapse in "${collapses[@]}"; do
      python3 "$reference" "$dir/script.txt.gz" "${opts[@]}" \
        --collapse "$collapse" -- "${collapse_opts[@]}" > "$tmp/out" \
        2> /dev/null
      same "$c/$name (${collapse##*/})" "$want" "$tmp/out"
    done
  done
  echo "$c: off-CPU time of the program's functions:"
  if python3 "$reference" "$dir/script.txt.gz" --collapse "$ff" \
      --check "$dir/program.txt"; then
    pass=$((pass + 1))
  else
    echo "FAIL: $c: off-CPU times more than 5% from the program's own"
    fail=$((fail + 1))
  fi
done
echo "off-CPU reference: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
