#!/bin/bash
# Re-creates the --time-range expectations in testdata/time-range/ (perf
# 6.x): for each line of its file cases, "CASE NAME RANGES PERF_RANGES
# [PERF_OPTIONS]" (tab separated), CASE.NAME.folded there is
#   perf script --time PERF_RANGES PERF_OPTIONS | stackcollapse-perf.pl
# on CASE/perf.data with the case's symbol sources, as record.sh runs perf
# script; flamefold --time-range RANGES must print the same. Relative
# ranges (+S,+E) are given to perf as --reltime --time S,E, or as the
# absolute times they stand for where the header lacks the first sample's
# time. CASE.txt.gz there is CASE's perf script text, against which the
# ranges in seconds are checked too (test/golden/time-range.sh).
# A recording whose perf script output for a sample depends on the samples
# printed before it (dwarf-threads: perf shows an inline frame or not) gives
# perf script --time output that differs from its full output for the same
# samples: such recordings are not used.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../time-range" && pwd)
collapse=${COLLAPSE:-/tmp/FlameGraph/stackcollapse-perf.pl}
script() {  # script CASE [perf script args]: perf script with our sources
  local c=$1; shift
  local k=() r=$here/root
  [ -f "$here/$c/kallsyms" ] && k=(--kallsyms "$here/$c/kallsyms")
  [ -d "$here/$c/root" ] && r=$here/$c/root
  perf --buildid-dir /nonexistent script -i "$here/$c/perf.data" \
    --symfs "$r" "${k[@]}" "$@" 2>/dev/null
}
# A NAME holding "srcline" is folded from perf script -F+srcline with
# stackcollapse-perf.pl --srcline (flamefold --srcline: the text path of a
# perf.data). SIGPIPE is ignored: perf dies of it when an addr2line process
# exits early.
while IFS=$'\t' read -r c name range perf_range more; do
  case $c in ''|'#'*) continue ;; esac
  read -ra extra <<< "${more:-}"
  opts=()
  case $name in *srcline*) extra+=(-F+srcline); opts=(--srcline) ;; esac
  (trap '' PIPE; script "$c" --time "$perf_range" "${extra[@]}") |
    perl "$collapse" "${opts[@]}" > "$out/$c.$name.folded"
done < "$out/cases"
for c in two-events system-wide; do
  script "$c" | gzip -9n > "$out/$c.txt.gz"
done
