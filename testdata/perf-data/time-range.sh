#!/bin/bash
# Re-creates the --time-range expectations (perf 6.x): for each line of
# time-range/cases, "CASE NAME RANGES PERF_RANGES [PERF_OPTIONS]" (tab
# separated), time-range/CASE.NAME.folded is
#   perf script --time PERF_RANGES PERF_OPTIONS | stackcollapse-perf.pl
# on CASE/perf.data with the case's symbol sources, as record.sh runs perf
# script; flamefold --time-range RANGES must print the same. Relative
# ranges (+S,+E) are given to perf as --reltime --time S,E, or as the
# absolute times they stand for where the header lacks the first sample's
# time. time-range/CASE.txt.gz is CASE's perf script text, against which the
# ranges in seconds are checked too (test/golden/time-range.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
collapse=${COLLAPSE:-/tmp/FlameGraph/stackcollapse-perf.pl}
script() {  # script CASE [perf script args]: perf script with our sources
  local c=$1; shift
  local k=() r=$here/root
  [ -f "$here/$c/kallsyms" ] && k=(--kallsyms "$here/$c/kallsyms")
  [ -d "$here/$c/root" ] && r=$here/$c/root
  perf --buildid-dir /nonexistent script -i "$here/$c/perf.data" \
    --symfs "$r" "${k[@]}" "$@" 2>/dev/null
}
while IFS=$'\t' read -r c name range perf_range more; do
  case $c in ''|'#'*) continue ;; esac
  read -ra extra <<< "${more:-}"
  script "$c" --time "$perf_range" "${extra[@]}" | perl "$collapse" \
    > "$here/time-range/$c.$name.folded"
done < "$here/time-range/cases"
for c in two-events system-wide; do
  script "$c" | gzip -9n > "$here/time-range/$c.txt.gz"
done
