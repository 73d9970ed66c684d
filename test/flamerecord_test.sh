#!/bin/bash
# flamerecord records a short run of a test program and converts it; skipped
# (exit 77, with the reason) where perf is not permitted to record; without
# perf, skipped or, under CI=true, failed (test/missing.sh). Also pins the
# usage errors, which need no perf, and what a failed or empty recording
# says and leaves behind (perf's own message, one clear message, no empty
# artifact).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/missing.sh"
: "${BUILD_DIR:=$here/../build}"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
tool=$BUILD_DIR/src/tools/flamerecord
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${sleeper:-}" ] && kill "$sleeper" 2>/dev/null' EXIT
fail=0; pass=0
check() {  # check NAME EXPECTED_STATUS COMMAND...
  local name=$1 want=$2; shift 2
  "$@" > "$work/out" 2> "$work/err"
  local got=$?
  if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
    echo "FAIL $name: exit $got, want $want"; cat "$work/err"; fail=$((fail + 1)); fi
}
expect() {  # expect NAME FILE: FILE equals standard input
  if diff -u - "$2" > "$work/diff"; then pass=$((pass + 1)); else
    echo "FAIL $1:"; cat "$work/diff"; fail=$((fail + 1)); fi
}
check no-target 2 "$tool"
check two-targets 2 "$tool" --all --pid 1
check bad-freq 2 "$tool" --freq x --all
check bad-call-graph 2 "$tool" --call-graph stack --all
# flamefold's options are taken, and checked by flamefold before recording.
check bad-fold-option 2 "$tool" --include '(' --all
expect bad-fold-option "$work/err" <<'OUT'
flamerecord: error: bad --include pattern '(': missing ): (
Try 'flamerecord --help' for more information.
OUT
check fold-option-needs-value 2 "$tool" --all --event-filter
check help 0 "$tool" --help
grep -q -- "--call-graph" "$work/out" || { echo "FAIL help text"; fail=$((fail + 1)); }
grep -q -- "--modern" "$work/out" || { echo "FAIL help text: no fold options"; fail=$((fail + 1)); }
grep -q -- "--scope" "$work/out" || { echo "FAIL help text: no --scope"; fail=$((fail + 1)); }

if ! command -v perf >/dev/null; then
  echo "flamerecord: usage checks $pass passed, $fail failed"
  [ $fail -eq 0 ] || exit 1
  missing "perf (apt-get install linux-perf)"
fi
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
  echo "flamerecord: usage checks $pass passed, $fail failed"
  echo "SKIP recording: perf is not permitted to record here (kernel.perf_event_paranoid?)"
  [ $fail -eq 0 ] && exit 77 || exit 1
fi
# Which files a recording left in a folder (its stamp replaced by STAMP).
left() { (cd "$1" 2>/dev/null && ls -A | sed 's/^[^.]*\.[0-9-]*\./STAMP./'); }
# Its standard error, with the stamp and the duration replaced.
normal() { sed -E 's#/[^/ ]*\.[0-9]{8}-[0-9]{6}\.#/STAMP.#g; s/in [0-9]+\.[0-9]+ s/in N s/' "$1"; }

# perf cannot start the command: perf's own message is passed through, then
# one error; nothing is left behind.
check missing-command 1 "$tool" -o "$work/none" -- /nonexistent/cmd
if grep -v '^flamerecord: ' "$work/err" | grep -q '/nonexistent/cmd'; then pass=$((pass + 1)); else
  echo "FAIL missing-command: perf's message is not passed through"; cat "$work/err"; fail=$((fail + 1)); fi
tail -n 1 "$work/err" | grep -qx "flamerecord: error: perf record failed (status [0-9]*): see perf's message above" &&
  ! grep -q "perf script failed" "$work/err" && pass=$((pass + 1)) ||
  { echo "FAIL missing-command: last line"; cat "$work/err"; fail=$((fail + 1)); }
expect missing-command-leaves-nothing <(left "$work/none") < /dev/null

# A process that sleeps throughout gets no sample: one clear message, and
# no empty perf.data, transcript, folded file or SVG.
sleep 60 & sleeper=$!
mkdir "$work/idle"
check no-samples 1 "$tool" -o "$work/idle" --pid "$sleeper" --duration 1
normal "$work/err" > "$work/err.n"
expect no-samples-message "$work/err.n" <<OUT
flamerecord: recording PID $sleeper at 99 Hz into $work/idle/STAMP.perf.data (Ctrl-C to stop early)
flamerecord: error: no samples were recorded in N s of PID $sleeper: it may have ended before the first sample or not run on a CPU (try a higher --freq or a longer --duration)
OUT
expect no-samples-leaves-nothing <(left "$work/idle") < /dev/null
kill "$sleeper" 2>/dev/null; sleeper=""

cc -O1 -fno-omit-frame-pointer -o "$work/spin" "$here/progs/spin.c" || exit 1
(cd "$work" && "$tool" -o rec --freq 999 --icicle --modern --scope -- ./spin 20000000) > "$work/paths" 2> "$work/log"
status=$?
if [ $status != 0 ]; then echo "FAIL record: exit $status"; cat "$work/log"; exit 1; fi
for ext in perf.data perf-script.txt.gz folded svg report.txt html; do
  f=$(grep "\.$ext\$" "$work/paths")
  if [ -s "$work/$f" ]; then pass=$((pass + 1)); else echo "FAIL missing $ext: $f"; fail=$((fail + 1)); fi
done
folded=$work/$(grep '\.folded$' "$work/paths")
if grep -q '^spin;.*leaf [0-9]*$' "$folded"; then pass=$((pass + 1)); else
  echo "FAIL: no spin;...;leaf stack in $folded"; head "$folded"; fail=$((fail + 1)); fi
svg=$work/$(grep '\.svg$' "$work/paths")
if grep -q '<title>leaf' "$svg" && tail -n 1 "$svg" | grep -q '</svg>'; then pass=$((pass + 1)); else
  echo "FAIL: svg"; fail=$((fail + 1)); fi
# The SVG title, the report and the last message say what was recorded:
# the command, the event, the duration.
event=$(perf evlist -i "$work/$(grep 'perf.data$' "$work/paths")" 2>/dev/null | paste -sd, -)
if grep -Eq "id=\"title\"[^>]*>\./spin 20000000: $event, [0-9]+\.[0-9]+ s at 999 Hz<" "$svg"; then
  pass=$((pass + 1)); else echo "FAIL: svg title"; grep 'id="title"' "$svg"; fail=$((fail + 1)); fi
report=$work/$(grep '\.report.txt$' "$work/paths")
if head -n 3 "$report" | sed -E 's/[0-9]+\.[0-9]+ s, [0-9]+ samples/N s, M samples/' | diff - <(printf '%s\n' \
     "Recorded: ./spin 20000000" "Event: $event, 999 Hz, call graph fp" "Duration: N s, M samples") > /dev/null; then
  pass=$((pass + 1)); else echo "FAIL: report header"; head -n 4 "$report"; fail=$((fail + 1)); fi
if tail -n 1 "$work/log" | grep -Eq "^flamerecord: recorded [1-9][0-9]* samples of $event in [0-9.]+ s of './spin 20000000'$"; then
  pass=$((pass + 1)); else echo "FAIL: last message"; cat "$work/log"; fail=$((fail + 1)); fi
# The archived transcript folds to the same stacks as the folded output.
if "$BUILD_DIR/src/tools/flamefold" --modern "$work/$(grep 'perf-script' "$work/paths")" | cmp -s - "$folded"; then
  pass=$((pass + 1)); else echo "FAIL: transcript and folded differ"; fail=$((fail + 1)); fi
# --scope's page, beside the SVG, holds every sample of the transcript.
html=$work/$(grep '\.html$' "$work/paths")
transcript=$work/$(grep 'perf-script' "$work/paths")
in_page=$(python3 "$here/scope_page.py" "$html" | awk '$1 == "samples" { print $2 }')
if [ "$(dirname "$html")" = "$(dirname "$svg")" ] &&
   [ "$in_page" = "$(gzip -dc "$transcript" | grep -c '^[^[:space:]#]')" ]; then
  pass=$((pass + 1)); else echo "FAIL: --scope's page ($in_page samples)"; fail=$((fail + 1)); fi
echo "flamerecord: $pass passed, $fail failed"
[ $fail -eq 0 ]
