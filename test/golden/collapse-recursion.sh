#!/bin/bash
# Golden test of flamefold --collapse-recursion against
# stackcollapse-recursive.pl, on every fold golden's expected output: each
# is read as folded stacks, and the output must be the Perl script's on
# that file, byte for byte. The goldens are testdata/expected/flamefold/*,
# testdata/flamegraph-tests/results/* and testdata/perf-data/*/*.folded.
#
# The Perl script's outputs are kept in testdata/expected/collapse-recursion/
# (gzip-compressed, named after the golden's path with '/' as '__'), so
# that the test reads only the repository. When the script is there
# (FLAMEGRAPH_DIR, default /tmp/FlameGraph), it is run too: its output must
# equal the kept one, which BLESS=1 rewrites from it.
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
: "${TESTDATA:?TESTDATA must be set}"
FOLD=$BUILD_DIR/src/tools/flamefold
PERL_SCRIPT=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-recursive.pl
EXPECTED=$TESTDATA/expected/collapse-recursion
[ -x "$FOLD" ] || { echo "collapse-recursion: $FOLD is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
. "$(dirname "$0")/same.sh"

if [ "${BLESS:-0}" = 1 ] && [ ! -f "$PERL_SCRIPT" ]; then
  echo "collapse-recursion: BLESS=1 needs $PERL_SCRIPT (set FLAMEGRAPH_DIR)"
  exit 1
fi

shopt -s nullglob
goldens=("$TESTDATA"/expected/flamefold/*.txt* "$TESTDATA"/flamegraph-tests/results/*.txt.gz
         "$TESTDATA"/perf-data/*/*.folded)
if [ ${#goldens[@]} -lt 200 ]; then
  echo "FAIL: only ${#goldens[@]} fold goldens found"
  fail=$((fail + 1))
fi
for golden in "${goldens[@]}"; do
  rel=${golden#"$TESTDATA"/}
  kept=$EXPECTED/${rel//\//__}
  kept=${kept%.gz}.gz
  if [ -f "$PERL_SCRIPT" ]; then
    zcat -f "$golden" | perl "$PERL_SCRIPT" > "$tmp/perl"
    if [ "${BLESS:-0}" = 1 ]; then
      gzip -9n < "$tmp/perl" > "$kept"
    fi
  fi
  if [ ! -f "$kept" ]; then
    echo "FAIL: $rel: no expected output $kept (BLESS=1 makes it)"
    fail=$((fail + 1))
    continue
  fi
  zcat "$kept" > "$tmp/want"
  if [ -f "$PERL_SCRIPT" ]; then
    same "$rel: the kept output is the Perl script's" "$tmp/perl" "$tmp/want"
  fi
  "$FOLD" -q --collapse-recursion "$golden" > "$tmp/got" 2> "$tmp/err"
  st=$?
  if [ $st -ne 0 ]; then
    echo "FAIL: $rel: exit $st"; head -5 "$tmp/err"; fail=$((fail + 1))
    continue
  fi
  same "$rel" "$tmp/want" "$tmp/got"
done
echo "collapse-recursion: $pass passed, $fail failed"
[ $fail -eq 0 ]
