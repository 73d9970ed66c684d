#!/bin/bash
# Golden test of flamefold --format=speedscope, d3 and pprof on small folds:
# testdata/expected/flamefold/system-wide-collapsed-tid.txt read as folded
# stacks, plain and through transforms, and
# testdata/perf-data/system-wide/perf.data with --all --tid.
# Each export must agree with the same run's folded lines, as
# test/golden/exports_check.py (written apart from flamefold's writers)
# reads the formats (pprof through `protoc --decode` against pprof's
# profile.proto, its totals against flamereport's), and hold the bytes kept
# in testdata/expected/exports/CASE.FORMAT (pprof as protoc's text), which
# pin the output's order and layout. BLESS=1 rewrites those from flamefold
# once the check passes. Without python3 only the bytes are compared;
# without protoc, pprof is skipped.
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
: "${TESTDATA:?TESTDATA must be set}"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd) TESTDATA=$(cd "$TESTDATA" && pwd)
FOLD=$BUILD_DIR/src/tools/flamefold
REPORT=$BUILD_DIR/src/tools/flamereport
CHECK=$(cd "$(dirname "$0")" && pwd)/exports_check.py
EXPECTED=$TESTDATA/expected/exports
PROTO=${PROFILE_PROTO:-/usr/share/gocode/src/github.com/google/pprof/proto/profile.proto}
export HOME=/nonexistent  # no build-id cache, as golden-perf-data
. "$(dirname "$0")/same.sh"
golden_start exports "$FOLD" "$REPORT"
# The inputs are named from testdata/ (speedscope's profile takes their names).
cd "$TESTDATA" || exit 1
protoc=0
command -v protoc > /dev/null && [ -f "$PROTO" ] && protoc=1
[ $protoc = 0 ] && echo "exports: no protoc or $PROTO: pprof not checked"
[ "${BLESS:-0}" = 1 ] && mkdir -p "$EXPECTED"

# export CASE FORMAT OPTIONS...: writes $tmp/CASE.FORMAT (pprof: decoded).
export_to() {
  local name=$1 format=$2
  shift 2
  if [ "$format" = pprof ]; then
    "$FOLD" -q --format=pprof "$@" > "$tmp/$name.pprof.gz" &&
      gunzip -c "$tmp/$name.pprof.gz" |
      protoc --decode perftools.profiles.Profile \
        -I "$(dirname "$PROTO")" "$PROTO" > "$tmp/$name.pprof.txt"
  else
    "$FOLD" -q --format="$format" "$@" > "$tmp/$name.$format.json"
  fi
}

# run_case CASE OPTIONS...
run_case() {
  local name=$1 format file
  shift
  local checks=()
  "$FOLD" -q "$@" > "$tmp/$name.folded" || { echo "FAIL: $name: fold"; fail=$((fail + 1)); return; }
  "$REPORT" -q --format=json --top 0 "$@" > "$tmp/$name.report" ||
    { echo "FAIL: $name: flamereport"; fail=$((fail + 1)); return; }
  for format in speedscope d3 pprof; do
    [ $format = pprof ] && [ $protoc = 0 ] && continue
    file=$name.$format.json
    [ $format = pprof ] && file=$name.pprof.txt
    if ! export_to "$name" $format "$@"; then
      echo "FAIL: $name $format: exit status"
      fail=$((fail + 1))
      continue
    fi
    case $format in
      speedscope) checks+=(--speedscope "$tmp/$file")
        [ -n "${perf_text:-}" ] && checks+=(--perf-text "$perf_text") ;;
      pprof) checks+=(--pprof-text "$tmp/$file" --report "$tmp/$name.report") ;;
      *) checks+=(--$format "$tmp/$file") ;;
    esac
  done
  if [ $python = 1 ]; then
    if python3 "$CHECK" "$tmp/$name.folded" "${checks[@]}"; then
      pass=$((pass + 1))
    else
      echo "FAIL: $name: the exports do not agree with the fold"
      fail=$((fail + 1))
      return
    fi
  fi
  for file in "$tmp/$name".*.json "$tmp/$name".pprof.txt; do
    [ -f "$file" ] || continue
    [ "${BLESS:-0}" = 1 ] && cp "$file" "$EXPECTED/"
    same "$name $(basename "$file")" "$EXPECTED/$(basename "$file")" "$file"
  done
}

folded=expected/flamefold/system-wide-collapsed-tid.txt
run_case folded "$folded"
run_case folded-hide-collapse-recursion --hide '^\[unknown\]$' \
  --collapse-recursion "$folded"
# perf script text: a speedscope profile per thread, checked against the
# text's own threads.
perf_text=flamegraph-tests/perf-iperf-stacks-pidtid-01.txt.gz
run_case perf-text-threads "$perf_text"
perf_text=
run_case perf-data-all-tid --all --tid --symfs perf-data/root \
  --kallsyms perf-data/system-wide/kallsyms perf-data/system-wide/perf.data
echo "exports: $pass passed, $fail failed"
[ $fail -eq 0 ]
