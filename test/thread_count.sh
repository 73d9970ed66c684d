#!/bin/bash
# Counts the threads flamefold starts while it folds a perf.data (every
# clone and clone3 call that strace -f sees succeed): a system-wide
# frame-pointer recording, by default and with --srcline, and a
# --call-graph dwarf recording, by default, with --inline and with
# --srcline. Each fold may start at most three threads besides the main
# one, and must fold as it does without strace. Skipped (exit 77) where
# strace is missing or may not trace.
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
ff=$BUILD_DIR/src/tools/flamefold
data=$TESTDATA/perf-data
most=3
if ! command -v strace >/dev/null; then
  echo "SKIP: strace is not installed"
  exit 77
fi
if ! strace -f -o /dev/null true 2>/dev/null; then
  echo "SKIP: strace may not trace here"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=/nonexistent  # no build-id cache, as the golden suites
fail=0

# check NAME ARGS...: folds with ARGS under strace and counts the threads.
check() {
  local name=$1 threads
  shift
  "$ff" "$@" > "$tmp/want" 2>/dev/null
  # LeakSanitizer stops a traced process (it cannot work under ptrace): the
  # leak check is the untraced fold's, above.
  if ! ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -e trace=clone,clone3 -o "$tmp/log" "$ff" "$@" \
      > "$tmp/out" 2>/dev/null || ! cmp -s "$tmp/want" "$tmp/out"; then
    echo "FAIL: $name: the fold under strace failed or differs"
    fail=$((fail + 1))
    return
  fi
  # "PID clone3({...}) = TID", or "PID <... clone3 resumed> ...) = TID"
  # when another thread's call came between.
  threads=$(grep -cE '^[0-9]+ .*clone3?[ (].* = [1-9][0-9]*$' "$tmp/log")
  if [ "$threads" -gt "$most" ]; then
    echo "FAIL: $name: $threads threads besides the main one (at most $most)"
    grep clone "$tmp/log"
    fail=$((fail + 1))
  else
    echo "ok: $name: $threads threads besides the main one"
  fi
}

sw=$data/system-wide
check "system-wide" --symfs "$data/root" --kallsyms "$sw/kallsyms" \
  "$sw/perf.data"
check "system-wide --srcline" --srcline --symfs "$data/root" \
  --kallsyms "$sw/kallsyms" "$sw/perf.data"
dw=$data/dwarf-cxx
for opt in "" --inline --srcline; do
  # shellcheck disable=SC2086
  check "dwarf-cxx${opt:+ $opt}" $opt --symfs "$dw/root" \
    --kallsyms "$dw/kallsyms" "$dw/perf.data"
done
[ "$fail" -eq 0 ]
