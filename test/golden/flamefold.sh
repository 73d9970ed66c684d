#!/bin/bash
# Golden test of flamefold against stackcollapse-perf.pl's recorded outputs.
#
#   (a) FlameGraph's own 78 test cases, kept in testdata/flamegraph-tests/ (13 inputs x 6 options,
#       inputs and results gzip-compressed);
#   (b) its gzip-compressed example, expectations in testdata/expected/flamefold/ (gzip-compressed
#       there too: the plain outputs are 650 KB each);
#   (c) every transcript in testdata/perf-script/ and its .gz/.zst copies, and the demo profile
#       testdata/example/example-perf.txt.gz, with each option set listed in CASE_OPTS below;
#   (d) every case again with --jobs 2 and --jobs 3: the same bytes are required;
#   (e) every case read from standard input instead of a file operand: the same bytes.
#
# Environment: BUILD_DIR, TESTDATA (set by meson); FLAMEGRAPH_DIR (default /tmp/FlameGraph) for
# BLESS=1, which rewrites every expectation from stackcollapse-perf.pl's real output (never the
# inputs). Everything read is in the repository.
# Prints a diff for each failure and a summary line "N passed, M failed"; exits 1 on any failure.
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
: "${TESTDATA:?TESTDATA must be set}"
FOLD=$BUILD_DIR/src/tools/flamefold
PERL_SCRIPT=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
EXPECTED=$TESTDATA/expected/flamefold
CONF=$TESTDATA/flamegraph-tests

if [ ! -x "$FOLD" ]; then
  echo "golden-flamefold: error: $FOLD is not built" >&2
  exit 1
fi

# Option sets per recorded case: entries "NAME" or "NAME|ARG,ARG...", NAME being the <opt> part
# of <case>-collapsed-<opt>.txt; a bare NAME means --NAME, and "none" means no option.
STD_OPTS="none pid tid kernel jit all addrs"
declare -A CASE_OPTS=(
  [cxx-fp]="$STD_OPTS"
  [cxx-dwarf]="$STD_OPTS"
  [cxx-two-events]="$STD_OPTS evf-cpu-clock|--event-filter=cpu-clock"
  [cxx-fp-srcline]="$STD_OPTS srcline srcline-addrs|--srcline,--addrs"
  [syscalls-kernel]="$STD_OPTS"
  [system-wide]="$STD_OPTS"
  [jit]="$STD_OPTS"
  [tracepoint]="$STD_OPTS evf-sys_enter_write|--event-filter=syscalls:sys_enter_write"
  [tracepoint-fields]="$STD_OPTS evf-sys_enter_write|--event-filter=syscalls:sys_enter_write"
  [example-perf]="none all"
)
# The demo profile (testdata/example/); its expectations are kept gzip-compressed.
DEMO=$TESTDATA/example/example-perf.txt.gz
EXAMPLE_OPTS="$STD_OPTS"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# A private copy, so that a rebuild while the test runs cannot change the binary under test.
cp "$FOLD" "$TMP/flamefold"
FOLD=$TMP/flamefold
passed=0
failed=0

# OptName ENTRY prints NAME; OptArgs ENTRY sets the array ARGS to the entry's options.
OptName() { echo "${1%%|*}"; }
OptArgs() {
  ARGS=()
  case "$1" in
    *"|"*) IFS=, read -r -a ARGS <<< "${1#*|}" ;;
    none) ;;
    *) ARGS=("--$1") ;;
  esac
}

# Check LABEL EXPECTED_FILE ACTUAL_FILE: compares bytes, prints a diff on mismatch.
Check() {
  local label=$1 want=$2 got=$3
  if cmp -s "$want" "$got"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $label"
    diff -u --label expected --label actual "$want" "$got" | head -n 40
  fi
}

# RunCase LABEL EXPECTED_FILE INPUT ARGS...: runs flamefold on INPUT as a file operand with
# --jobs 1, 2 and 3, and on standard input; every run must print EXPECTED_FILE's bytes and exit 0.
RunCase() {
  local label=$1 want=$2 input=$3
  shift 3
  local jobs status
  if [ ! -f "$want" ]; then
    echo "FAIL: $label: no expected output $want (BLESS=1 makes it)"
    failed=$((failed + 1))
    return
  fi
  for jobs in 1 2 3; do
    "$FOLD" "$@" --jobs "$jobs" "$input" > "$TMP/out" 2> "$TMP/err"
    status=$?
    if [ $status -ne 0 ]; then
      echo "FAIL: $label --jobs $jobs: exit status $status"
      sed -n 1,5p "$TMP/err"
      failed=$((failed + 1))
      continue
    fi
    Check "$label --jobs $jobs" "$want" "$TMP/out"
  done
  "$FOLD" "$@" < "$input" > "$TMP/out" 2> "$TMP/err"
  status=$?
  if [ $status -ne 0 ]; then
    echo "FAIL: $label (stdin): exit status $status"
    sed -n 1,5p "$TMP/err"
    failed=$((failed + 1))
    return
  fi
  Check "$label (stdin)" "$want" "$TMP/out"
}

# Bless OUTPUT INPUT ARGS...: writes stackcollapse-perf.pl's output for INPUT (a transcript, which
# may be compressed) to OUTPUT, gzip-compressed when OUTPUT ends in .gz.
Bless() {
  local out=$1 input=$2
  shift 2
  local text=$TMP/bless-input
  case "$input" in
    *.gz) zcat "$input" > "$text" ;;
    *.zst) zstdcat -q "$input" > "$text" ;;
    *) cp "$input" "$text" ;;
  esac
  if [[ $out == *.gz ]]; then
    perl "$PERL_SCRIPT" "$@" "$text" 2> /dev/null | gzip -9n > "$out"
  else
    perl "$PERL_SCRIPT" "$@" "$text" 2> /dev/null > "$out"
  fi
  echo "blessed $out"
}

# ExpectedFile BASE: the expectation file BASE.txt, or a decompressed copy of BASE.txt.gz.
ExpectedFile() {
  if [ -f "$1.txt" ]; then
    echo "$1.txt"
  elif [ -f "$1.txt.gz" ]; then
    local copy
    copy=$TMP/expected-$(basename "$1").txt
    zcat "$1.txt.gz" > "$copy"
    echo "$copy"
  else
    echo "$1.txt"
  fi
}

if [ "${BLESS:-0}" = 1 ]; then
  if [ ! -f "$PERL_SCRIPT" ]; then
    echo "golden-flamefold: error: BLESS=1 needs $PERL_SCRIPT (set FLAMEGRAPH_DIR)" >&2
    exit 1
  fi
  mkdir -p "$EXPECTED"
  for input in "$TESTDATA"/perf-script/*.txt; do
    name=$(basename "$input" .txt)
    for entry in ${CASE_OPTS[$name]:-$STD_OPTS}; do
      OptArgs "$entry"
      Bless "$EXPECTED/$name-collapsed-$(OptName "$entry").txt" "$input" "${ARGS[@]}"
    done
  done
  for entry in ${CASE_OPTS[example-perf]}; do
    OptArgs "$entry"
    Bless "$EXPECTED/example-perf-collapsed-$entry.txt.gz" "$DEMO" "${ARGS[@]}"
  done
  for entry in $EXAMPLE_OPTS; do
    OptArgs "$entry"
    Bless "$EXPECTED/example-perf-stacks-collapsed-$entry.txt.gz" \
      "$CONF/example-perf-stacks.txt.gz" "${ARGS[@]}"
  done
  for input in "$CONF"/perf-*.txt.gz; do
    for opt in pid tid kernel jit all addrs; do
      Bless "$CONF/results/$(basename "$input" .txt.gz)-collapsed-$opt.txt.gz" "$input" "--$opt"
    done
  done
fi

# (a) FlameGraph's test cases and (b) its gzip example; 13 inputs, or the copy is incomplete.
shopt -s nullglob
conf_inputs=("$CONF"/perf-*.txt.gz)
if [ ${#conf_inputs[@]} -ne 13 ]; then
  echo "FAIL: $CONF holds ${#conf_inputs[@]} of FlameGraph's 13 test inputs (perf-*.txt.gz)"
  failed=$((failed + 1))
fi
for opt in pid tid kernel jit all addrs; do
  for input in "${conf_inputs[@]}"; do
    name=$(basename "$input" .txt.gz)
    RunCase "flamegraph-tests $name --$opt" \
      "$(ExpectedFile "$CONF/results/$name-collapsed-$opt")" "$input" "--$opt"
  done
done
for entry in $EXAMPLE_OPTS; do
  OptArgs "$entry"
  RunCase "example-perf-stacks.txt.gz $entry" \
    "$(ExpectedFile "$EXPECTED/example-perf-stacks-collapsed-$entry")" \
    "$CONF/example-perf-stacks.txt.gz" "${ARGS[@]}"
done

# (c) recorded transcripts, plain and compressed.
inputs=("$TESTDATA"/perf-script/*.txt "$TESTDATA"/perf-script/*.txt.gz "$TESTDATA"/perf-script/*.txt.zst
        "$DEMO")
if [ ${#inputs[@]} -eq 0 ]; then
  echo "FAIL: no transcripts in $TESTDATA/perf-script"
  failed=$((failed + 1))
fi
for input in "${inputs[@]}"; do
  file=$(basename "$input")
  name=${file%%.txt*}
  for entry in ${CASE_OPTS[$name]:-$STD_OPTS}; do
    OptArgs "$entry"
    RunCase "$file $(OptName "$entry")" \
      "$(ExpectedFile "$EXPECTED/$name-collapsed-$(OptName "$entry")")" \
      "$input" "${ARGS[@]}"
  done
done

echo "golden-flamefold: $passed passed, $failed failed"
[ $failed -eq 0 ]
