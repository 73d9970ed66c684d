#!/bin/bash
# flamerecord records a short run of a test program and converts it; skipped
# (exit 77, with the reason) where perf is not permitted to record; without
# perf, skipped or, under CI=true, failed (test/missing.sh). Also pins the
# usage errors, which need no perf.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/missing.sh"
: "${BUILD_DIR:=$here/../build}"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
tool=$BUILD_DIR/src/tools/flamerecord
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0; pass=0
check() {  # check NAME EXPECTED_STATUS COMMAND...
  local name=$1 want=$2; shift 2
  "$@" > "$work/out" 2> "$work/err"
  local got=$?
  if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
    echo "FAIL $name: exit $got, want $want"; cat "$work/err"; fail=$((fail + 1)); fi
}
check no-target 2 "$tool"
check two-targets 2 "$tool" --all --pid 1
check bad-freq 2 "$tool" --freq x --all
check bad-call-graph 2 "$tool" --call-graph stack --all
check help 0 "$tool" --help
grep -q -- "--call-graph" "$work/out" || { echo "FAIL help text"; fail=$((fail + 1)); }

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
cc -O1 -fno-omit-frame-pointer -o "$work/spin" "$here/progs/spin.c" || exit 1
(cd "$work" && "$tool" -o rec --freq 999 --icicle -- ./spin 20000000) > "$work/paths" 2> "$work/log"
status=$?
if [ $status != 0 ]; then echo "FAIL record: exit $status"; cat "$work/log"; exit 1; fi
for ext in perf.data perf-script.txt.gz folded svg report.txt; do
  f=$(grep "\.$ext\$" "$work/paths")
  if [ -s "$work/$f" ]; then pass=$((pass + 1)); else echo "FAIL missing $ext: $f"; fail=$((fail + 1)); fi
done
folded=$work/$(grep '\.folded$' "$work/paths")
if grep -q '^spin;.*leaf [0-9]*$' "$folded"; then pass=$((pass + 1)); else
  echo "FAIL: no spin;...;leaf stack in $folded"; head "$folded"; fail=$((fail + 1)); fi
svg=$work/$(grep '\.svg$' "$work/paths")
if grep -q 'Icicle\|<title>leaf' "$svg" && tail -n 1 "$svg" | grep -q '</svg>'; then pass=$((pass + 1)); else
  echo "FAIL: svg"; fail=$((fail + 1)); fi
# The archived transcript folds to the same stacks as the folded output.
if "$BUILD_DIR/src/tools/flamefold" "$work/$(grep 'perf-script' "$work/paths")" | cmp -s - "$folded"; then
  pass=$((pass + 1)); else echo "FAIL: transcript and folded differ"; fail=$((fail + 1)); fi
echo "flamerecord: $pass passed, $fail failed"
[ $fail -eq 0 ]
