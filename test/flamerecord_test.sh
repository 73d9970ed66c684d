#!/bin/bash
# flamerecord records a short run of a test program and converts it; skipped
# (exit 77, with the reason) where perf is not permitted to record; without
# perf, skipped or, under CI=true, failed (test/missing.sh). Also pins the
# usage errors, which need no perf, and what a failed or empty recording
# says and leaves behind (perf's own message, one clear message, no empty
# artifact), and, with a fake perf, the command lines of --off-cpu and
# --malloc and the removal of --malloc's uprobe however the run ends.
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
grep -q -- "--off-cpu" "$work/out" && grep -q -- "--malloc" "$work/out" ||
  { echo "FAIL help text: no --off-cpu, --malloc"; fail=$((fail + 1)); }

# --- --off-cpu and --malloc, with a fake perf ----------------------------------
# perf on PATH is a script that logs each call and plays its part: perf
# record writes a file and runs the command (stopping it on SIGINT, as perf
# does), perf script prints the start of a real transcript. The tools are
# wrappers that log their arguments and run the real ones without --off-cpu:
# what is pinned here is the command lines flamerecord builds, not what the
# fold makes of them (flamefold's own tests).
fake=$work/fake
mkdir -p "$fake"
export FAKE_LOG=$work/calls
cat > "$fake/perf" <<'PERF'
#!/bin/bash
echo "perf $*" >> "$FAKE_LOG"
case $1 in
  probe)
    [ "$2" = -l ] && [ "${FAKE_PROBE_EXISTS:-0}" = 1 ] && echo "  probe_libc:malloc (on malloc)"
    exit 0 ;;
  record)
    [ "${FAKE_RECORD_FAIL:-0}" = 1 ] && { echo "fake perf: cannot record" >&2; exit 1; }
    while [ "$1" != -- ]; do [ "$1" = -o ] && out=$2; shift; done
    shift
    echo data > "$out"
    "$@" & child=$!
    trap 'echo "perf stopped by SIGINT" >> "$FAKE_LOG"; kill $child; exit 130' INT
    wait $child ;;
  script) gzip -dc "$FAKE_SCRIPT" ;;
  evlist)  # as perf 6.1 lists tracepoint events
    echo "$FAKE_EVENT"
    case $FAKE_EVENT in probe_*|sched:*)
      echo "# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events" ;;
    esac ;;
esac
PERF
for t in flamefold flamesvg flamereport; do
  cat > "$fake/$t" <<TOOL
#!/bin/bash
echo "$t \$*" >> "\$FAKE_LOG"
args=()
for a in "\$@"; do [ "\$a" = --off-cpu ] || args+=("\$a"); done
exec "$BUILD_DIR/src/tools/$t" "\${args[@]}"
TOOL
done
chmod +x "$fake"/*
short() {  # short TRANSCRIPT: its first 40 lines, to the end of a sample
  gzip -dc "$1" | awk 'NR > 40 && /^$/ { exit } { print }' | gzip -c
}
short "$here/../testdata/perf-data/offcpu-fp/off-cpu/script.txt.gz" > "$work/offcpu.gz"
short "$here/../testdata/perf-data/weight-malloc/script.txt.gz" > "$work/malloc.gz"
# fake NAME STATUS ARGS...: flamerecord with the fake perf into $work/NAME;
# $work/NAME.calls holds the calls, stamps and durations replaced.
fake() {
  local name=$1 want=$2; shift 2
  : > "$FAKE_LOG"
  PATH=$fake:$PATH FLAMEFOLD_BIN=$fake check "$name" "$want" "$tool" -o "$work/$name" "$@"
  calls "$name"
}
calls() {
  sed -E "s#$work/$1/[^/ ]*\.[0-9]{8}-[0-9]{6}\.#OUT/#g; s/[0-9]+\.[0-9]+ s/N s/g
    s/(flamerecord on )[^ ]+ at [0-9-]+ [0-9:]+ [^ ]+/\1HOST at DATE/" "$FAKE_LOG" > "$work/$1.calls"
}
libc=$(awk '$NF ~ /\/libc\.so\.6$/ { print $NF; exit }' /proc/self/maps)
offcpu_script='perf script --ns -F comm,pid,tid,cpu,time,event,trace,ip,sym,dso --show-switch-events --show-task-events -i OUT/perf.data'
check off-cpu-and-malloc 2 "$tool" --off-cpu --malloc -- true
check off-cpu-freq 2 "$tool" --off-cpu --freq 99 -- true
check malloc-scope 2 "$tool" --malloc --scope -- true
export FAKE_SCRIPT=$work/offcpu.gz FAKE_EVENT=sched:sched_switch
fake off-cpu 0 --off-cpu -- sleep 0
expect off-cpu-calls "$work/off-cpu.calls" <<OUT
flamefold -q --off-cpu
perf record -e sched:sched_switch -c 1 --switch-events -g -o OUT/perf.data -- sleep 0
$offcpu_script
flamefold --off-cpu OUT/perf-script.txt.gz
perf evlist -i OUT/perf.data
flamesvg --colors io --countname us --title sleep 0: Off-CPU time (us), N s --subtitle recorded by flamerecord on HOST at DATE OUT/folded
flamereport --off-cpu OUT/perf-script.txt.gz
OUT
grep -q '^Measured: Off-CPU time (us)$' "$work"/off-cpu/*.report.txt && pass=$((pass + 1)) ||
  { echo "FAIL off-cpu: report header"; fail=$((fail + 1)); }
# The host: no --switch-events (sched_switch's next_pid shows every
# switch-in); the call graph chosen; a PID.
fake off-cpu-all 0 --off-cpu --all --call-graph dwarf --duration 0
grep '^perf record' "$work/off-cpu-all.calls" > "$work/record"
expect off-cpu-all-record "$work/record" <<'OUT'
perf record -e sched:sched_switch -c 1 --call-graph dwarf -o OUT/perf.data -a -- sleep 0
OUT
fake off-cpu-pid 0 --off-cpu --pid 1 --duration 0
grep '^perf record' "$work/off-cpu-pid.calls" > "$work/record"
expect off-cpu-pid-record "$work/record" <<'OUT'
perf record -e sched:sched_switch -c 1 --switch-events -g -o OUT/perf.data -p 1 -- sleep 0
OUT

export FAKE_SCRIPT=$work/malloc.gz FAKE_EVENT=probe_libc:malloc
malloc_calls="perf probe -l probe_libc:malloc
perf probe -q -x $libc malloc bytes=%di:u64"
fake malloc 0 --malloc -- true
grep -v '^flamesvg' "$work/malloc.calls" > "$work/malloc.calls-svg"
expect malloc-calls "$work/malloc.calls-svg" <<OUT
flamefold -q --weight bytes
$malloc_calls
perf record -e probe_libc:malloc -c 1 -g -o OUT/perf.data -- true
perf probe -q --del probe_libc:malloc
perf script -i OUT/perf.data
flamefold --weight bytes OUT/perf-script.txt.gz
perf evlist -i OUT/perf.data
flamereport --weight bytes OUT/perf-script.txt.gz
OUT
grep -qx 'flamesvg --colors mem --countname bytes --title true: malloc bytes, N s --subtitle recorded by flamerecord on HOST at DATE OUT/folded' "$work/malloc.calls" &&
  pass=$((pass + 1)) || { echo "FAIL malloc: flamesvg call"; cat "$work/malloc.calls"; fail=$((fail + 1)); }
# The report names the event alone, not the tip perf evlist prints after it.
grep -q '^Event: probe_libc:malloc, every call, call graph fp$' "$work"/malloc/*.report.txt &&
  pass=$((pass + 1)) || { echo "FAIL malloc: report's Event line"; grep Event "$work"/malloc/*.report.txt; fail=$((fail + 1)); }
# The probe is removed when perf record fails...
FAKE_RECORD_FAIL=1 fake malloc-fails 1 --malloc -- true
expect malloc-fails-calls "$work/malloc-fails.calls" <<OUT
flamefold -q --weight bytes
$malloc_calls
perf record -e probe_libc:malloc -c 1 -g -o OUT/perf.data -- true
perf probe -q --del probe_libc:malloc
OUT
# ... and is not touched when it was there before.
FAKE_PROBE_EXISTS=1 fake malloc-exists 1 --malloc -- true
expect malloc-exists-calls "$work/malloc-exists.calls" <<OUT
flamefold -q --weight bytes
perf probe -l probe_libc:malloc
OUT
# signal NAME SIGNAL TARGET WANT: flamerecord --malloc of a long command in
# a session of its own (SIGINT as a terminal gives it), sent SIGNAL once
# perf records: to the whole group (Ctrl-C) or to flamerecord alone.
signal() {
  local name=$1 sig=$2 to=$3 want=$4 i
  : > "$FAKE_LOG"
  PATH=$fake:$PATH FLAMEFOLD_BIN=$fake python3 -c '
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execv(sys.argv[1], sys.argv[1:])' "$tool" -o "$work/$name" --malloc -- sleep 30 \
    > "$work/out" 2> "$work/err" &
  local rec=$!
  for i in $(seq 100); do grep -q '^perf record' "$FAKE_LOG" && break; sleep 0.1; done
  sleep 0.2
  if [ "$to" = group ]; then kill -"$sig" -- -"$rec"; else kill -"$sig" "$rec"; fi
  wait "$rec" 2> /dev/null
  local got=$?
  if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
    echo "FAIL $name: exit $got, want $want"; cat "$work/err"; fail=$((fail + 1)); fi
  calls "$name"
}
signal malloc-ctrl-c INT group 0
sed -n '2,6p' "$work/malloc-ctrl-c.calls" > "$work/ctrl-c.calls"
expect malloc-ctrl-c-calls "$work/ctrl-c.calls" <<OUT
$malloc_calls
perf record -e probe_libc:malloc -c 1 -g -o OUT/perf.data -- sleep 30
perf stopped by SIGINT
perf probe -q --del probe_libc:malloc
OUT
grep -q "interrupted: converting what was recorded" "$work/err" && pass=$((pass + 1)) ||
  { echo "FAIL malloc-ctrl-c: not converted"; cat "$work/err"; fail=$((fail + 1)); }
for sig in TERM HUP; do
  signal malloc-$sig $sig flamerecord $((128 + $(kill -l $sig)))
  expect malloc-$sig-calls "$work/malloc-$sig.calls" <<OUT
flamefold -q --weight bytes
$malloc_calls
perf record -e probe_libc:malloc -c 1 -g -o OUT/perf.data -- sleep 30
perf stopped by SIGINT
perf probe -q --del probe_libc:malloc
OUT
done
unset FAKE_LOG FAKE_SCRIPT FAKE_EVENT

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
in_page=$(python3 -c '
import base64, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r"id=\"scope-data\">(.*?)</script>", page, re.S).group(1))
numbers, v, shift = [], 0, 0  # the packed cells: base64 of LEB128 numbers
for b in base64.b64decode(data["cells"]):
    v |= (b & 127) << shift
    shift += 7
    if b < 128:
        numbers.append(v)
        v, shift = 0, 0
samples, i = 0, 0
while i < len(numbers):  # cell delta, samples, runs, then the runs
    samples += numbers[i + 1]
    i += 3 + 2 * numbers[i + 2]
print(samples)' "$html")
if [ "$(dirname "$html")" = "$(dirname "$svg")" ] &&
   [ "$in_page" = "$(gzip -dc "$transcript" | grep -c '^[^[:space:]#]')" ]; then
  pass=$((pass + 1)); else echo "FAIL: --scope's page ($in_page samples)"; fail=$((fail + 1)); fi
echo "flamerecord: $pass passed, $fail failed"
[ $fail -eq 0 ]
