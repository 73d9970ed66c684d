#!/bin/bash
# Golden tests of flamefold on raw perf.data files recorded here (see
# testdata/perf-data/record.sh): each CASE/NAME.folded is what
# `perf script | stackcollapse-perf.pl OPTIONS` printed, with the options
# in the file name ("all+tid" = --all --tid, "default" = none).
# Symbols come only from the case's files: --symfs root (the binaries as
# recorded; CASE/root when the case has its own), --kallsyms CASE/kallsyms,
# and HOME pointing nowhere so that no build-id cache is used. Each check
# also prints the share of the sample weight that folds to the expected
# stacks. A case with CASE/script.txt.gz (its perf script text) is checked
# on that text too, with the same expectations (--inline and --context look
# the binaries up under --symfs); the off-CPU expectations (NAME starting
# "off-cpu") on CASE/off-cpu/script.txt.gz, the text their reference read
# (its side-band records, which flamefold reads only with --off-cpu, fold
# otherwise into the sample after them, as in the Perl script). Then:
# stdin, gzip, a cut-short file and corrupt lengths. (The fuzz suite, test/fuzz.sh, fuzzes the perf.data reader
# from these recordings.)
#
# The --srcline expectations (NAME holding "srcline") are those of
# `perf script -F+srcline ... | stackcollapse-perf.pl --srcline ...`;
# BLESS=1 rewrites every CASE/*srcline*.folded from that pipeline on the
# recorded perf.data (perf 6.1 and binutils' addr2line, as record.sh uses
# them; an empty CASE/NAME.folded adds a case). perf reads JIT maps from
# /tmp whatever --symfs says, so root/tmp/perf-*.map are copied there for
# the run (and removed); SIGPIPE is ignored because perf dies of it when
# an addr2line process exits early (a file it cannot read).
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
ff=$BUILD_DIR/src/tools/flamefold
data=$TESTDATA/perf-data
root=$data/root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=/nonexistent
fail=0
pass=0
. "$(dirname "$0")/same.sh"

bless_srcline() {  # bless_srcline CASE_DIR ROOT: rewrites its *srcline* files
  local dir=$1 r=$2 want name opts p copied=()
  local collapse=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
  [ -f "$collapse" ] || { echo "BLESS=1 needs $collapse"; exit 1; }
  for p in "$data"/root/tmp/perf-*.map; do
    [ -f "$p" ] && [ ! -e "/tmp/${p##*/}" ] || continue
    cp "$p" /tmp/ && copied+=("/tmp/${p##*/}")
  done
  for want in "$dir"/*srcline*.folded; do
    [ -f "$want" ] || continue
    name=$(basename "$want" .folded)
    opts=()
    IFS=+ read -ra parts <<< "$name"
    for p in "${parts[@]}"; do opts+=("--$p"); done
    (trap '' PIPE
     perf --buildid-dir /nonexistent script -F+srcline -i "$dir/perf.data" \
       --symfs "$r" --kallsyms "$dir/kallsyms" 2>/dev/null) |
      perl "$collapse" "${opts[@]}" > "$want" 2>/dev/null
    echo "blessed $want"
  done
  [ ${#copied[@]} -eq 0 ] || rm -f "${copied[@]}"
}

# The share of EXPECTED's sample weight that ACTUAL folds to the same stacks.
weight() {  # weight EXPECTED ACTUAL
  awk 'FNR == NR { n = $NF; sub(/ [0-9]+$/, ""); want[$0] += n; total += n; next }
       { n = $NF; sub(/ [0-9]+$/, ""); got[$0] += n }
       END { for (k in want) same += (got[k] < want[k] ? got[k] : want[k])
             printf "%.2f", total ? 100 * same / total : 100 }' "$1" "$2"
}

check() {  # check WHAT EXPECTED ACTUAL
  echo "$1: $(weight "$2" "$3")% of the sample weight in identical stacks"
  same "$@"
}

for dir in "$data"/*/; do
  c=$(basename "$dir")
  [ -f "$dir/perf.data" ] || continue
  # Cases with a perf archive have their own test (perf-archive.sh).
  [ -f "$dir/perf.data.tar.bz2" ] && continue
  root=$data/root
  [ -d "$dir/root" ] && root=$dir/root
  [ "${BLESS:-0}" = 1 ] && bless_srcline "$dir" "$root"
  for want in "$dir"/*.folded; do
    name=$(basename "$want" .folded)
    opts=()
    if [ "$name" != default ]; then
      IFS=+ read -ra parts <<< "$name"
      for p in "${parts[@]}"; do opts+=("--$p"); done
    fi
    "$ff" --symfs "$root" --kallsyms "$dir/kallsyms" "${opts[@]}" \
      "$dir/perf.data" > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ $st -ne 0 ]; then
      echo "FAIL: $c/$name: exit $st"; cat "$tmp/err"; fail=$((fail + 1))
      continue
    fi
    check "$c/$name" "$want" "$tmp/out"
    text=$dir/script.txt.gz
    case $name in off-cpu*) text=$dir/off-cpu/script.txt.gz ;; esac
    [ -f "$text" ] || continue
    case $name in *srcline*) continue ;; esac  # the text has no srclines
    "$ff" --symfs "$root" "${opts[@]}" "$text" > "$tmp/out" 2> "$tmp/err"
    check "$c/$name (perf script text)" "$want" "$tmp/out"
  done
  # The same from standard input, and gzip-compressed.
  "$ff" --symfs "$root" --kallsyms "$dir/kallsyms" < "$dir/perf.data" \
    > "$tmp/out" 2>/dev/null
  check "$c/default (stdin)" "$dir/default.folded" "$tmp/out"
  gzip -c "$dir/perf.data" | "$ff" --symfs "$root" \
    --kallsyms "$dir/kallsyms" > "$tmp/out" 2>/dev/null
  check "$c/default (gzip on stdin)" "$dir/default.folded" "$tmp/out"
done

root=$data/root
# A file cut inside a record: a warning, exit 0, the whole records folded.
sw=$data/system-wide
size=$(stat -c %s "$sw/perf.data")
head -c $((size * 2 / 3)) "$sw/perf.data" > "$tmp/cut.data"
"$ff" --symfs "$root" --kallsyms "$sw/kallsyms" "$tmp/cut.data" \
  > "$tmp/out" 2> "$tmp/err"
st=$?
if [ $st -ne 0 ] || ! grep -q "warning: .*cut short" "$tmp/err" ||
   [ ! -s "$tmp/out" ]; then
  echo "FAIL: cut-short file: exit $st"; cat "$tmp/err"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi

# Corrupt lengths: an error naming the offset, exit 1, no crash.
corrupt() {  # corrupt WHAT OFFSET BYTES
  cp "$sw/perf.data" "$tmp/bad.data"
  printf "$3" | dd of="$tmp/bad.data" bs=1 seek="$2" conv=notrunc 2>/dev/null
  "$ff" --symfs "$root" --kallsyms "$sw/kallsyms" "$tmp/bad.data" \
    > /dev/null 2> "$tmp/err"
  st=$?
  if [ $st -ne 1 ] || ! grep -q "error: .*offset [0-9]*:" "$tmp/err"; then
    echo "FAIL: corrupt $1: exit $st"; cat "$tmp/err"; fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
corrupt "data offset" 47 '\x7f'
corrupt "attr size" 16 '\x05'
# The first record's size field (data starts where the header says).
data_off=$(od -An -t u8 -j 40 -N 8 "$sw/perf.data" | tr -d ' ')
corrupt "record size" $((data_off + 6)) '\x03\x00'

echo "perf.data golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
