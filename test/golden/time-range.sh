#!/bin/bash
# Golden tests of --time-range: each line of
# testdata/perf-data/time-range/cases names a recording, a range and the
# file holding what `perf script --time ... | stackcollapse-perf.pl` printed
# for it (testdata/perf-data/time-range.sh made them). flamefold folds the
# recording with that range and must print the same bytes; where the case
# has its perf script text (CASE.txt.gz), the ranges in seconds are checked
# on the text too (its times are in microseconds: no sample of these cases
# lies in the same microsecond as a bound). The same, with --jobs 2, on the
# text.
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
ff=$BUILD_DIR/src/tools/flamefold
data=$TESTDATA/perf-data
. "$(dirname "$0")/same.sh"
golden_start golden-time-range "$ff"
export HOME=/nonexistent

while IFS=$'\t' read -r c name range _; do
  case $c in ''|'#'*) continue ;; esac
  want=$data/time-range/$c.$name.folded
  root=$data/root
  [ -d "$data/$c/root" ] && root=$data/$c/root
  "$ff" -q --symfs "$root" --kallsyms "$data/$c/kallsyms" --time-range "$range" \
    "$data/$c/perf.data" > "$tmp/out" 2> "$tmp/err" ||
    { echo "FAIL: $c.$name: exit $?"; cat "$tmp/err"; fail=$((fail + 1)); continue; }
  same "$c.$name (perf.data)" "$want" "$tmp/out"
  text=$data/time-range/$c.txt.gz
  [ -f "$text" ] || continue
  case $range in *%*) continue ;; esac  # percent needs the perf.data header
  for jobs in 1 2; do
    "$ff" -q --jobs $jobs --time-range "$range" "$text" > "$tmp/out" 2> "$tmp/err" ||
      { echo "FAIL: $c.$name text: exit $?"; cat "$tmp/err"; fail=$((fail + 1)); continue; }
    same "$c.$name (perf script text, --jobs $jobs)" "$want" "$tmp/out"
  done
done < "$data/time-range/cases"

echo "time-range golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
