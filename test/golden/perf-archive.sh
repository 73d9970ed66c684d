#!/bin/bash
# Golden tests of flamefold on profiles moved off their host with
# `perf archive` (see testdata/perf-data/record.sh, "archive"): each
# CASE/perf.data.tar.bz2 holds the build-id cache entries of the objects its
# samples hit, and CASE/default.folded is what perf script printed with that
# archive unpacked into its build-id cache, piped through
# stackcollapse-perf.pl. The binaries themselves are nowhere: flamefold runs
# with an empty --symfs root and HOME pointing nowhere, so every symbol (and,
# for archive-dwarf, every CFI record) comes from the archive:
#   - given with --archive;
#   - found by itself beside a copy of the perf.data (and said in a note);
#   - cut short: a warning, exit 0, what the archive still held is used;
#   - lacking one of the objects: a warning naming it, and its frames stay
#     unknown as perf script leaves them;
#   - --archive naming a file that is not an archive: an error, exit 1.
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
ff=$BUILD_DIR/src/tools/flamefold
data=$TESTDATA/perf-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=/nonexistent
empty=$tmp/empty
mkdir -p "$empty"
fail=0
pass=0
. "$(dirname "$0")/same.sh"

failed() {  # failed WHAT: reports the last run
  echo "FAIL: $1"
  sed 's/^/  stderr: /' "$tmp/err"
  fail=$((fail + 1))
}

# expect_stderr WHAT EXIT-STATUS WANTED-EXIT [grep -E pattern...]: every
# pattern must match a line of the last run's stderr, and no other line
# may be there.
expect_stderr() {
  local what=$1 st=$2 want=$3 rest
  shift 3
  rest=$(cat "$tmp/err")
  if [ "$st" -ne "$want" ]; then
    failed "$what: exit $st, not $want"
    return
  fi
  for p in "$@"; do
    if ! grep -qE "$p" "$tmp/err"; then
      failed "$what: no line matching: $p"
      return
    fi
    rest=$(printf '%s\n' "$rest" | grep -vE "$p")
  done
  if [ -n "$rest" ]; then
    failed "$what: unexpected messages"
    return
  fi
  pass=$((pass + 1))
}

cases=0
for dir in "$data"/*/; do
  c=$(basename "$dir")
  [ -f "$dir/perf.data.tar.bz2" ] || continue
  cases=$((cases + 1))
  want=$dir/default.folded
  # DWARF stacks without the objects' CFI end early, and flamefold says so.
  unwound=()
  [ "$c" = archive-dwarf ] &&
    unwound=("^flamefold: warning: .*perf.data: DWARF unwinding ended early ")
  # Given with --archive.
  "$ff" --symfs "$empty" --archive "$dir/perf.data.tar.bz2" \
    "$dir/perf.data" > "$tmp/out" 2> "$tmp/err"
  expect_stderr "$c: --archive" $? 0
  same "$c: --archive" "$want" "$tmp/out"

  # Found beside the perf.data.
  rm -rf "$tmp/copy" && mkdir "$tmp/copy"
  cp "$dir/perf.data" "$dir/perf.data.tar.bz2" "$tmp/copy/"
  "$ff" --symfs "$empty" "$tmp/copy/perf.data" > "$tmp/out" 2> "$tmp/err"
  expect_stderr "$c: beside" $? 0 \
    "^flamefold: note: using archive $tmp/copy/perf.data.tar.bz2\$"
  same "$c: beside" "$want" "$tmp/out"
  # -q silences the note; standard input has no "beside".
  "$ff" -q --symfs "$empty" "$tmp/copy/perf.data" > "$tmp/out" 2> "$tmp/err"
  expect_stderr "$c: beside, -q" $? 0
  "$ff" --symfs "$empty" --archive "$dir/perf.data.tar.bz2" \
    < "$dir/perf.data" > "$tmp/out" 2> "$tmp/err"
  expect_stderr "$c: stdin with --archive" $? 0
  same "$c: stdin with --archive" "$want" "$tmp/out"

  # Without one of the two objects: a warning naming it; the other's
  # frames are named as before.
  rm -rf "$tmp/unpacked" && mkdir "$tmp/unpacked"
  tar xjf "$dir/perf.data.tar.bz2" -C "$tmp/unpacked"
  lib=$(cd "$tmp/unpacked" && find . -path '*/libtiny.so/*/elf' | cut -c3-)
  libdir=${lib%/elf}
  bid=${libdir##*/}
  rm -rf "${tmp:?}/unpacked/$libdir" "$tmp/unpacked/.build-id/${bid:0:2}/${bid:2}"
  tar cjf "$tmp/part.tar.bz2" -C "$tmp/unpacked" .
  "$ff" --symfs "$empty" --archive "$tmp/part.tar.bz2" "$dir/perf.data" \
    > "$tmp/out" 2> "$tmp/err"
  expect_stderr "$c: a DSO missing" $? 0 \
    "^flamefold: warning: /${libdir%/*}: no symbols found \(build id $bid\); not in the archive $tmp/part.tar.bz2\$" \
    "${unwound[@]}"
  if ! grep -Eq ';(step|rounds)( |;)' "$tmp/out" ||
     grep -q 'tiny_' "$tmp/out"; then
    echo "FAIL: $c: a DSO missing: frames"; head -5 "$tmp/out"
    fail=$((fail + 1))
  fi

  # Cut short: what it held before the cut is used.
  size=$(stat -c %s "$dir/perf.data.tar.bz2")
  head -c $((size / 2)) "$dir/perf.data.tar.bz2" > "$tmp/copy/perf.data.tar.bz2"
  # The objects the archive lost are named; but where no object of the
  # process is left at all, perf gives a DWARF sample no user frame, so no
  # symbol is looked up there and only the unwinding warning says why.
  lost=("^flamefold: warning: /.*: no symbols found \(build id [0-9a-f]+\); not in the archive $tmp/copy/perf.data.tar.bz2\$")
  [ "$c" = archive-dwarf ] && lost=()
  "$ff" --symfs "$empty" "$tmp/copy/perf.data" > "$tmp/out" 2> "$tmp/err"
  expect_stderr "$c: cut short" $? 0 \
    "^flamefold: note: using archive " \
    "^flamefold: warning: $tmp/copy/perf.data.tar.bz2: cut short or corrupt (inside [^ ]+ )?after [0-9]+ entr" \
    "${lost[@]}" "${unwound[@]}"
  [ -s "$tmp/out" ] || { echo "FAIL: $c: cut short: no output"; fail=$((fail + 1)); }
done

# Not an archive: --archive is an error; found beside, a warning.
dir=$data/archive-fp
"$ff" --symfs "$empty" --archive "$dir/perf.data" "$dir/perf.data" \
  > "$tmp/out" 2> "$tmp/err"
expect_stderr "not an archive" $? 1 \
  "^flamefold: error: $dir/perf.data: not a perf archive: "
head -c 1000 "$dir/perf.data" > "$tmp/copy/perf.data.tar.bz2"
"$ff" --symfs "$empty" "$tmp/copy/perf.data" > "$tmp/out" 2> "$tmp/err"
expect_stderr "not an archive, beside" $? 0 \
  "^flamefold: note: using archive " \
  "^flamefold: warning: $tmp/copy/perf.data.tar.bz2: not a perf archive: .*; folded without it\$" \
  "^flamefold: warning: /.*: no symbols found \(build id [0-9a-f]+\)\$"

if [ $cases -lt 2 ]; then
  echo "FAIL: expected two archive cases, found $cases"
  fail=$((fail + 1))
fi
echo "perf archive golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
