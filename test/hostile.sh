#!/bin/bash
# Hostile input: every tool over every file of testdata/bad/ (see
# testdata/README.md, "bad/") plus inputs too big to commit, made here by
# bad/make.py --big: a 20 MB line, 100,000-deep stacks, 1 MB frame names.
# Each run must
#   - exit 0, 1 or 2 (a signal, status >= 128, fails; so does a timeout),
#   - finish within HOSTILE_TIMEOUT seconds (default 120),
#   - say "<tool>: error:" or "<tool>: warning:" on stderr when it exits
#     non-zero (no silent failure),
# every SVG written must parse as XML and hold no <script> but our
# viewer, and every JSON report must parse. The stacks past the default
# limits (deep-*: 100,000 frames; names-*: 1 MB names) must be said in a
# warning by each tool that reads them (never cut silently). Runs under the ASan+UBSan
# build too (BUILD_DIR=build-asan): a sanitizer report (exit status 99, or
# its text on stderr) fails the run.
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
bin=$BUILD_DIR/src/tools
bad=$TESTDATA/bad
viewer=$TESTDATA/../src/flamegraph/viewer.js
limit=${HOSTILE_TIMEOUT:-120}  # seconds per run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=/nonexistent  # no build-id cache for perf.data look-ups
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:exitcode=99}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:exitcode=99}
for t in flamefold flamesvg flamediff flamereport flamebatch; do
  if [ ! -x "$bin/$t" ]; then
    echo "FAIL: $bin/$t not built"
    exit 1
  fi
done
if ! python3 -c 'import xml.dom.minidom' 2>/dev/null; then
  . "$(dirname "$0")/missing.sh"
  missing "python3 with xml.dom.minidom, to check the SVGs (apt-get install python3)"
fi
fail=0
runs=0

# The generated inputs.
gen=$tmp/gen
mkdir -p "$gen"
python3 "$bad/make.py" --big "$gen" || exit 1

good=$tmp/good.folded
printf 'proc;main;work 10\nproc;main;idle 5\n' > "$good"

# run NAME TOOL ARGS...: runs with a time limit, checks status and stderr.
run() {
  local name=$1 tool=$2
  shift 2
  local err=$tmp/stderr status
  runs=$((runs + 1))
  timeout "$limit" "$bin/$tool" "$@" > "$tmp/stdout" 2> "$err"
  status=$?
  if [ "$status" -eq 124 ]; then
    echo "FAIL: $name: $tool took longer than ${limit}s: $tool $*"
    fail=$((fail + 1))
    return
  fi
  if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:" \
      "$err"; then
    echo "FAIL: $name: sanitizer report from $tool $*"
    head -c 3000 "$err"
    fail=$((fail + 1))
    return
  fi
  if [ "$status" -gt 2 ]; then
    echo "FAIL: $name: $tool exited with status $status: $tool $*"
    head -c 3000 "$err"
    fail=$((fail + 1))
    return
  fi
  if [ "$status" -ne 0 ] && ! grep -q "^$tool: \(error\|warning\):" "$err"; then
    echo "FAIL: $name: $tool exited $status without an error message: $tool $*"
    head -c 1000 "$err"
    fail=$((fail + 1))
  fi
}

# limit_warned NAME TOOL: after a run over a deep-* or names-* input, its
# stderr must have the warning of the limit that input is past.
limit_warned() {
  local want
  case $1 in
    deep-*) want="sample(s) had stacks deeper than 65536 frames" ;;
    names-*) want="frame name(s) were longer than 262144 bytes" ;;
    *) return ;;
  esac
  if ! grep -qF "$want" "$tmp/stderr"; then
    echo "FAIL: $1: $2 did not warn about the limit (\"$want\"):"
    head -c 1000 "$tmp/stderr"
    fail=$((fail + 1))
  fi
}

# keep_svg NAME: queues the SVG on stdout (if any) for the XML check.
svgs=$tmp/svgs
mkdir -p "$svgs"
keep_svg() {
  if [ -s "$tmp/stdout" ]; then
    cp "$tmp/stdout" "$svgs/$1.svg"
  fi
}

jsons=$tmp/jsons
mkdir -p "$jsons"
inputs=()
for f in "$bad"/* "$gen"/*; do
  case $f in *.py | */README*) continue ;; esac
  # HOSTILE_MATCH: a regular expression to run a few inputs only.
  [[ $(basename "$f") =~ ${HOSTILE_MATCH:-.} ]] || continue
  inputs+=("$f")
done
for f in "${inputs[@]}"; do
  n=$(basename "$f")
  run "$n" flamefold "$f"
  limit_warned "$n" flamefold
  cp "$tmp/stdout" "$tmp/folded"
  run "$n" flamefold --modern --all --pid "$f"
  # --jobs 2 folds what --jobs 1 folds, whatever the input.
  run "$n" flamefold --jobs 2 "$f"
  if ! cmp -s "$tmp/stdout" "$tmp/folded"; then
    echo "FAIL: $n: flamefold --jobs 2 output differs from --jobs 1"
    fail=$((fail + 1))
  fi
  run "$n" flamesvg "$f"
  [[ $n == *.folded* ]] && limit_warned "$n" flamesvg  # folded input only
  keep_svg "$n.direct"
  if [ -s "$tmp/folded" ]; then
    run "$n" flamesvg "$tmp/folded"
    keep_svg "$n.folded"
  fi
  run "$n" flamediff "$f" "$good"
  limit_warned "$n" flamediff
  run "$n" flamediff -n -s "$good" "$f"
  run "$n" flamereport "$f"
  limit_warned "$n" flamereport
  # Every function, each with its callee tree: the work must stay linear in
  # the depth of a 100,000-deep stack (one walk for all functions, not one per
  # batch).
  run "$n" flamereport --format json --top 0 --max-stack-depth 200000 "$f"
  [ -s "$tmp/stdout" ] && cp "$tmp/stdout" "$jsons/$n.json"
done

# One folder: flamebatch converts each file (as many at once as it likes).
mkdir -p "$tmp/batch-in" "$tmp/batch-out"
cp "${inputs[@]}" "$tmp/batch-in/"
run batch flamebatch -o "$tmp/batch-out" --folded --svg --report --jobs 2 \
  "$tmp/batch-in"
i=0
while IFS= read -r -d '' s; do
  i=$((i + 1))
  cp "$s" "$svgs/batch-$i-$(basename "$s")"
done < <(find "$tmp/batch-out" -name '*.svg' -print0)

# Every JSON report parses.
if ! python3 - "$jsons" <<'PY'; then
import json, os, sys
d = sys.argv[1]
bad = 0
for name in sorted(os.listdir(d)):
    try:
        with open(os.path.join(d, name), "rb") as f:
            json.loads(f.read())
    except Exception as e:
        print("FAIL: %s: flamereport --format json: not JSON: %s" % (name, e))
        bad += 1
print("checked %d JSON reports" % len(os.listdir(d)))
sys.exit(1 if bad else 0)
PY
  fail=$((fail + 1))
fi

# Every SVG: well-formed XML, and one <script> at most, ours.
if ! python3 - "$svgs" "$viewer" <<'PY'; then
import os, sys
import xml.dom.minidom
d, viewer = sys.argv[1], open(sys.argv[2]).read().strip()
bad = 0
names = sorted(os.listdir(d))
for name in names:
    path = os.path.join(d, name)
    try:
        doc = xml.dom.minidom.parse(path)
    except Exception as e:
        print("FAIL: %s: not XML: %s" % (name, e))
        bad += 1
        continue
    scripts = doc.getElementsByTagName("script")
    for s in scripts:
        text = "".join(c.data for c in s.childNodes
                       if c.nodeType in (c.TEXT_NODE, c.CDATA_SECTION_NODE))
        if text.strip() != viewer:
            print("FAIL: %s: a <script> that is not the viewer" % name)
            bad += 1
    if len(scripts) > 1:
        print("FAIL: %s: %d <script> elements" % (name, len(scripts)))
        bad += 1
print("checked %d SVG files" % len(names))
sys.exit(1 if bad else 0)
PY
  fail=$((fail + 1))
fi

echo "hostile: $runs runs over ${#inputs[@]} inputs, $fail failed"
[ "$fail" -eq 0 ]
