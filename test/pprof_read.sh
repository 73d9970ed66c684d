#!/bin/bash
# What pprof reads back from `flamefold --format pprof`: Go's pprof
# (`go tool pprof`, from Debian's golang-go) lists every function of the
# profile with -top, and its flat and cumulative values must be
# flamereport's self and total for the same input and options (both count
# a function once per stack, whatever its recursion; -symbolize=none keeps
# the names as the profile gives them, C++ template arguments and all).
# Inputs: a system-wide perf.data (values in the cpu type, nanoseconds;
# the samples type adds up to the samples folded; the mappings carry the
# recording's build ids, as `perf buildid-list` reads them when perf is
# installed), perf script text, and folded stacks. Skipped (exit 77)
# without Go.
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
tools=$BUILD_DIR/src/tools
if ! command -v go >/dev/null || ! go tool pprof -h >/dev/null 2>&1; then
  echo "SKIP: go tool pprof is not installed (Debian: golang-go)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GOCACHE=$tmp/gocache PPROF_TMPDIR=$tmp PPROF_BINARY_PATH=/nonexistent
fail=0
sw=$TESTDATA/perf-data/system-wide

# compare PROFILE INDEX REPORT-CSV PROCESSES: pprof's -top of sample type
# INDEX, every node kept, against flamereport's CSV. Each function
# flamereport lists must be in pprof's with the same flat (self) and cum
# (total); pprof's others must be process frames (flamereport lists those
# apart), which PROCESSES names, one a line.
compare() {
  go tool pprof -symbolize=none -top -sample_index="$2" -unit=ns -nodecount=1000000 \
      -nodefraction=0 -edgefraction=0 "$1" 2>/dev/null |
    python3 -c '
import csv, sys
report = {r[1]: (r[2], r[4]) for r in list(csv.reader(open(sys.argv[1])))[1:]}
processes = set(open(sys.argv[2]).read().split("\n"))
pprof, started = {}, False
for line in sys.stdin:
    line = line.rstrip("\n")
    if not started:
        started = line.split()[:2] == ["flat", "flat%"]
        continue
    f = line.split(None, 5)
    strip = lambda v: v[:-2] if v.endswith("ns") else v
    pprof[f[5]] = (strip(f[0]), strip(f[3]))
bad = 0
for name, want in sorted(report.items()):
    if pprof.get(name) != want:
        print(f"  {name!r}: flamereport {want}, pprof {pprof.get(name)}")
        bad += 1
for name in sorted(set(pprof) - set(report) - processes):
    print(f"  {name!r}: in pprof only, {pprof[name]}")
    bad += 1
print(f"{len(report)} functions compared")
sys.exit(1 if bad or not report else 0)' "$3" "$4"
}
# check NAME INDEX INPUT-ARGS...
check() {
  local name=$1 index=$2
  shift 2
  if ! "$tools/flamefold" -q --format pprof -o "$tmp/$name.pb.gz" "$@"; then
    echo "FAIL: $name: flamefold --format pprof failed"
    fail=$((fail + 1))
    return
  fi
  "$tools/flamefold" -q "$@" | cut -d';' -f1 | sed 's/ [^ ]*$//' |
    sort -u > "$tmp/$name.processes"
  "$tools/flamereport" -q --format csv --top 0 --depth 0 "$@" \
    > "$tmp/$name.csv"
  if compare "$tmp/$name.pb.gz" "$index" "$tmp/$name.csv" \
      "$tmp/$name.processes" > "$tmp/$name.log"; then
    echo "ok: $name: $(tail -1 "$tmp/$name.log")"
  else
    echo "FAIL: $name: pprof -top differs from flamereport"
    head -20 "$tmp/$name.log"
    fail=$((fail + 1))
  fi
}

check system-wide cpu "$sw/perf.data" --kallsyms "$sw/kallsyms"
check system-wide-all cpu "$sw/perf.data" --kallsyms "$sw/kallsyms" --all --pid
check text 1 "$TESTDATA/example/example-perf.txt.gz"
check folded 0 "$TESTDATA/flamereport/recursion.folded"

# The samples type adds up to the samples folded.
folded=$("$tools/flamefold" -q --stats "$sw/perf.data" --kallsyms "$sw/kallsyms" \
  2>&1 >/dev/null | sed -n 's/.*stats: \([0-9]*\) samples folded.*/\1/p')
total=$(go tool pprof -top -sample_index=samples "$tmp/system-wide.pb.gz" 2>/dev/null |
  sed -n 's/.* of \([0-9]*\) total.*/\1/p')
if [ -z "$folded" ] || [ "$folded" != "$total" ]; then
  echo "FAIL: samples type: pprof's total '$total', samples folded '$folded'"
  fail=$((fail + 1))
fi

# The mappings: each file the recording gives a build id has it.
go tool pprof -raw "$tmp/system-wide.pb.gz" 2>/dev/null |
  sed -n '/^Mappings/,$p' > "$tmp/mappings"
if ! grep -q ' [0-9a-f]\{40\} \[FN\]$' "$tmp/mappings"; then
  echo "FAIL: no mapping with a build id"
  fail=$((fail + 1))
elif command -v perf >/dev/null; then
  perf buildid-list -i "$sw/perf.data" 2>/dev/null > "$tmp/buildids"
  while read -r id file; do
    line=$(grep -F " $file " "$tmp/mappings")
    if [ -n "$line" ] && [[ "$line" != *" $file $id [FN]" ]]; then
      echo "FAIL: mapping of $file: '$line', perf gives $id"
      fail=$((fail + 1))
    fi
  done < "$tmp/buildids"
fi
[ "$fail" -eq 0 ] || exit 1
echo "pprof reads back what flamereport reports"
