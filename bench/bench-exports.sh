#!/bin/bash
# bench-exports.sh: flamefold's output formats (--format folded, speedscope, d3, pprof) of one
# fold: flamefold's fold of the transcript shaped like large C++ services (gen-perf-script.py
# --shape cxx-service, $SIZE_MB MiB, default 200), read back as folded stacks. Each figure is the
# whole run, reading the fold included (the folded row is that cost alone); the note gives each
# output's size.
# Checks that each export agrees with the folded lines (test/golden/exports_check.py; pprof when
# protoc and pprof's profile.proto are there). Then speedscope's profile per thread, from the
# transcript itself, beside the transcript's folded lines.
# Environment: SIZE_MB, PROFILE_PROTO, and lib.sh's (RUNS, BUILD_DIR, ...).
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup exports flamefold flamereport

input=$(folded_transcript cxx-service "${SIZE_MB:-200}") ||
  { echo "bench-exports: error: no fold of the cxx-service transcript" >&2; exit 1; }
cat "$input" > /dev/null  # into the page cache

group "flamefold --format, flamefold's fold of the cxx-service transcript" \
  "$input: $(du -m "$input" | cut -f1) MB, $(wc -l < "$input") stacks"
measure folded "flamefold $input" \
  speedscope "flamefold --format=speedscope $input" \
  d3 "flamefold --format=d3 $input" \
  pprof "flamefold --format=pprof $input"
sizes=""
for format in folded speedscope d3 pprof; do
  sizes+=" $format $(du -m "$out/$format.out" | cut -f1) MB;"
done
note "output sizes:${sizes%;}"

checks=(--speedscope "$out/speedscope.out" --d3 "$out/d3.out")
proto=${PROFILE_PROTO:-/usr/share/gocode/src/github.com/google/pprof/proto/profile.proto}
if command -v protoc > /dev/null && [ -f "$proto" ]; then
  gunzip -c "$out/pprof.out" |
    protoc --decode perftools.profiles.Profile -I "$(dirname "$proto")" "$proto" \
      > "$out/pprof.txt"
  flamereport -q --format=json --top 0 "$input" > "$out/report.json"
  checks+=(--pprof-text "$out/pprof.txt" --report "$out/report.json")
fi
check "each export holds the folded lines' stacks and totals" \
  python3 test/golden/exports_check.py "$out/folded.out" "${checks[@]}"

# From the transcript itself, speedscope keeps every sample for a profile per thread (and folds
# on one thread); the folded lines of the same run are the reference.
text=$(transcript cxx-service "${SIZE_MB:-200}") ||
  { echo "bench-exports: error: no cxx-service transcript" >&2; exit 1; }
cat "$text" > /dev/null
group "flamefold --format=speedscope of the cxx-service transcript: a profile per thread" \
  "$text: $(du -m "$text" | cut -f1) MB, $(grep -c '^[^[:space:]#]' "$text") samples"
measure text-folded "flamefold $text" \
  text-speedscope "flamefold --format=speedscope $text"
threads=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["profiles"]))' \
  "$out/text-speedscope.out")
note "output sizes: folded $(du -m "$out/text-folded.out" | cut -f1) MB; speedscope\
 $(du -m "$out/text-speedscope.out" | cut -f1) MB, $threads threads"
check "the threads' samples add up to the folded lines, a profile per thread" \
  python3 test/golden/exports_check.py "$out/text-folded.out" \
    --speedscope "$out/text-speedscope.out" --perf-text "$text"
finish
