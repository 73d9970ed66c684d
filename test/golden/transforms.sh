#!/bin/bash
# Golden test of flamefold's stack transforms (--focus, --ignore, --hide,
# --show-from, --skip-after, --prune-from, --collapse-recursion,
# --generalize-names), each alone and chained in orders that give different
# results, on two inputs:
#   folded: testdata/expected/flamefold/system-wide-collapsed-tid.txt, read
#     as folded stacks (with --tid, whose "-PID/TID" --generalize-names keeps);
#   perf.data: testdata/perf-data/system-wide/perf.data with --all --tid (its
#     fold is that directory's all+tid.folded, as golden-perf-data checks).
# The expectations, testdata/expected/transforms/INPUT-CASE.folded, are what
# test/golden/transforms_ref.py, a reference written apart from flamefold,
# makes of the input's fold; when python3 is there it is run again and must
# give them. BLESS=1 rewrites them from it.
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
: "${TESTDATA:?TESTDATA must be set}"
FOLD=$BUILD_DIR/src/tools/flamefold
REF=$(cd "$(dirname "$0")" && pwd)/transforms_ref.py
EXPECTED=$TESTDATA/expected/transforms
SW=$TESTDATA/perf-data/system-wide
export HOME=/nonexistent  # no build-id cache, as golden-perf-data
. "$(dirname "$0")/same.sh"
golden_start transforms "$FOLD"
if [ "${BLESS:-0}" = 1 ] && [ $python = 0 ]; then
  echo "transforms: BLESS=1 needs python3"
  exit 1
fi
[ "${BLESS:-0}" = 1 ] && mkdir -p "$EXPECTED"

# Each case: its name, then its options (patterns hold no space).
CASES=(
  'focus --focus ^handle_mm_fault'
  'ignore --ignore ^\[unknown\]$'
  'hide --hide ^\[|pvm_irq_enable'
  'show-from --show-from ^(do_syscall_64|main)'
  'skip-after --skip-after do_syscall_64'
  'prune-from --prune-from ^(exc_page_fault|x64_sys_call)'
  'collapse-recursion --collapse-recursion'
  'generalize-names --generalize-names'
  'chain-cut --hide ^\[unknown\]$ --collapse-recursion --show-from ^(main|asm_exc|entry_SYSCALL) --ignore ^(python3|bash)- --focus ^handle_mm_fault --prune-from ^do_syscall_64'
  'chain-cut-reordered --prune-from ^do_syscall_64 --focus ^handle_mm_fault --ignore ^(python3|bash)- --show-from ^(main|asm_exc|entry_SYSCALL) --collapse-recursion --hide ^\[unknown\]$'
  'chain-names --generalize-names --hide \* --hide ^\[bash\]$ --collapse-recursion'
  'chain-names-reordered --hide \* --collapse-recursion --hide ^\[bash\]$ --generalize-names'
)

# run_input INPUT_NAME FOLD INPUT OPTIONS...: the cases on INPUT, folded
# with OPTIONS (--tid among them, which the reference is given too); FOLD
# is INPUT's fold without transforms.
run_input() {
  local input=$1 fold=$2 file=$3
  shift 3
  local entry name opts want st
  for entry in "${CASES[@]}"; do
    read -r -a opts <<< "$entry"
    name=${opts[0]}
    opts=("${opts[@]:1}")
    want=$EXPECTED/$input-$name.folded
    if [ $python = 1 ]; then
      python3 "$REF" --tid "${opts[@]}" < "$fold" > "$tmp/ref"
      [ "${BLESS:-0}" = 1 ] && cp "$tmp/ref" "$want"
    fi
    if [ ! -f "$want" ]; then
      echo "FAIL: $input $name: no expected output $want (BLESS=1 makes it)"
      fail=$((fail + 1))
      continue
    fi
    [ $python = 1 ] && same "$input $name: the reference" "$want" "$tmp/ref"
    "$FOLD" -q "$@" "${opts[@]}" "$file" > "$tmp/got" 2> "$tmp/err"
    st=$?
    if [ $st -ne 0 ]; then
      echo "FAIL: $input $name: exit $st"; head -5 "$tmp/err"
      fail=$((fail + 1))
      continue
    fi
    same "$input $name" "$want" "$tmp/got"
  done
}

folded=$TESTDATA/expected/flamefold/system-wide-collapsed-tid.txt
run_input folded "$folded" "$folded" --tid
run_input perf-data "$SW/all+tid.folded" "$SW/perf.data" --all --tid \
  --symfs "$TESTDATA/perf-data/root" --kallsyms "$SW/kallsyms"

# Every case must change its input's fold, or it tests nothing.
for want in "$EXPECTED"/*.folded; do
  case $(basename "$want") in
    folded-*) fold=$folded ;;
    *) fold=$SW/all+tid.folded ;;
  esac
  if cmp -s "$want" "$fold"; then
    echo "FAIL: $(basename "$want") is its input's fold unchanged"
    fail=$((fail + 1))
  fi
done
# A chain reordered must give another result, or the order is not tested.
for want in "$EXPECTED"/*-reordered.folded; do
  if cmp -s "$want" "${want%-reordered.folded}.folded"; then
    echo "FAIL: $(basename "$want") equals the chain in its first order"
    fail=$((fail + 1))
  fi
done
echo "transforms: $pass passed, $fail failed"
[ $fail -eq 0 ]
