#!/bin/bash
# flamereport against an independent computation: a small Python program
# (below) reads the folded stacks, computes self and total samples per
# function (total: a stack counts once per function, recursion included),
# the rankings, percentages and callee trees, and compares them with
# flamereport's JSON, CSV and text output. For perf script inputs the folded
# stacks are stackcollapse-perf.pl's (the reference), while flamereport
# reads the perf script text itself.
#   flamereport.sh        the comparisons
#   flamereport.sh cli    options, usage errors, exit statuses, messages
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
REPORT=$BUILD_DIR/src/tools/flamereport
D=$TESTDATA/flamereport
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
if [ ! -x "$REPORT" ]; then echo "flamereport not built: $REPORT"; exit 1; fi
if ! command -v python3 >/dev/null; then
  . "$(dirname "$0")/../missing.sh"
  missing "python3, for the independent computation (apt-get install python3)"
fi

cat > "$T/reference.py" <<'PY'
# reference.py FOLDED REPORT.json REPORT.csv REPORT.txt DEPTH WIDTH UNIT
# Exits 1, printing the differences, when flamereport's numbers differ.
# UNIT is what the counts are: samples, or period (perf input with periods);
# periods of cpu-clock and task-clock are nanoseconds, which the CSV
# columns and the JSON "unit" name ("ns").
import csv, io, json, re, sys

folded, json_path, csv_path, text_path = sys.argv[1:5]
depth, width, unit = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
LINE = re.compile(rb'^(.*)\s(\d+(?:\.\d*)?)$', re.S)

stacks = {}
for raw in open(folded, 'rb').read().split(b'\n'):
    m = LINE.match(raw)
    if not m:
        continue
    stacks[m.group(1)] = stacks.get(m.group(1), 0) + int(m.group(2))
if open(folded, 'rb').read().endswith(b'\n') is False:
    pass  # the last line is read all the same

total = sum(stacks.values())
procs, self_, tot = {}, {}, {}
for stack, n in stacks.items():
    frames = stack.split(b';')
    procs[frames[0]] = procs.get(frames[0], 0) + n
    funcs = frames[1:]
    for f in funcs:
        self_.setdefault(f, 0); tot.setdefault(f, 0)
    if funcs:
        self_[funcs[-1]] += n
    for f in set(funcs):          # once per stack: recursion counts once
        tot[f] += n

def pct(x):
    return '%.2f' % (100.0 * x / total) if total else '0.00'

by_self = sorted(self_, key=lambda f: (-self_[f], -tot[f], f))
by_total = sorted(tot, key=lambda f: (-tot[f], -self_[f], f))

def callees(f, depth=depth):
    tree = {}
    for stack, n in stacks.items():
        frames = stack.split(b';')
        if f not in frames[1:]:
            continue
        i = frames.index(f, 1)     # the outermost call
        node = tree
        for callee in frames[i + 1:i + 1 + depth]:
            entry = node.setdefault(callee, [0, {}])
            entry[0] += n
            node = entry[1]
    def trim(node):
        names = sorted(node, key=lambda c: (-node[c][0], c))[:width]
        return [(c, node[c][0], trim(node[c][1])) for c in names]
    return trim(tree)

def callers(f, depth=depth):
    # Up from the outermost call, to the process frame (key: name, is it
    # the process); ties: functions before the process, then by name.
    tree = {}
    for stack, n in stacks.items():
        frames = stack.split(b';')
        if f not in frames[1:]:
            continue
        i = frames.index(f, 1)
        node = tree
        for j in range(i - 1, max(i - 1 - depth, -1), -1):
            entry = node.setdefault((frames[j], j == 0), [0, {}])
            entry[0] += n
            node = entry[1]
    def trim(node):
        keys = sorted(node, key=lambda k: (-node[k][0], k[1], k[0]))[:width]
        return [(k, node[k][0], trim(node[k][1])) for k in keys]
    return trim(tree)

def name(b):
    return b.decode('utf-8', 'replace')

errors = []
def same(what, got, want):
    if got != want:
        errors.append('%s: flamereport %r, reference %r' % (what, got, want))

rep = json.load(open(json_path, encoding='utf-8'))
same('total_samples', rep['total_samples'], total)
same('count_unit', rep['count_unit'], unit)
clock = (rep['event'] or '').split(':')[0] in ('cpu-clock', 'task-clock')
column = 'ns' if unit == 'period' and clock else unit
same('unit', rep['unit'], column)
same('distinct_stacks', rep['distinct_stacks'], len(stacks))
want_procs = sorted(procs, key=lambda p: (-procs[p], p))
same('processes', [(p['name'], p['samples'], '%.2f' % p['pct'])
                   for p in rep['processes']],
     [(name(p), procs[p], pct(procs[p])) for p in want_procs])

def rows(table, order):
    got = [(r['rank'], r['function'], r['self_samples'], '%.2f' % r['self_pct'],
            r['total_samples'], '%.2f' % r['total_pct']) for r in table]
    want = [(i + 1, name(f), self_[f], pct(self_[f]), tot[f], pct(tot[f]))
            for i, f in enumerate(order)]
    return got, want

same('top_self', *rows(rep['top_self'], by_self))
same('top_total', *rows(rep['top_total'], by_total))
def json_tree(nodes):
    return [(c['function'], c['samples'], '%.2f' % c['pct'],
             json_tree(c['callees'])) for c in nodes]
def ref_tree(nodes):
    return [(name(c), n, pct(n), ref_tree(sub)) for c, n, sub in nodes]
for r, f in zip(rep['top_self'], by_self):
    same('callees of %r' % name(f), json_tree(r['callees']), ref_tree(callees(f)))
def json_callers(nodes):
    return [(('process', c['process']) if 'process' in c else c['function'],
             c['samples'], '%.2f' % c['pct'], json_callers(c['callers']))
            for c in nodes]
def ref_callers(nodes):
    return [(('process', name(k[0])) if k[1] else name(k[0]), n, pct(n),
             ref_callers(sub)) for k, n, sub in nodes]
for r, f in zip(rep['top_self'], by_self):
    same('callers of %r' % name(f), json_callers(r['callers']),
         ref_callers(callers(f)))

# CSV: the header, then the self ranking; names round-trip, invalid UTF-8
# replaced (U+FFFD, as Python decodes it): the CSV is always valid UTF-8.
data = open(csv_path, 'rb').read().decode('utf-8')  # strict: valid UTF-8
table = list(csv.reader(io.StringIO(data, newline='')))
same('csv header', table[0], ['rank', 'function', 'self_' + column, 'self_pct',
                              'total_' + column, 'total_pct', 'callers',
                              'callees'])
def csv_level(nodes, proc):  # the first level: "name count;..."
    return ';'.join((k[0] if proc else k).decode('utf-8', 'replace') +
                    (' (process)' if proc and k[1] else '') + ' ' + str(n)
                    for k, n, _ in nodes)
same('csv rows', table[1:],
     [[str(i + 1), f.decode('utf-8', 'replace'), str(self_[f]), pct(self_[f]),
       str(tot[f]), pct(tot[f]), csv_level(callers(f, min(depth, 1)), True),
       csv_level(callees(f, min(depth, 1)), False)] for i, f in enumerate(by_self)])

# Text: the header numbers with thousands separators.
text = open(text_path, encoding='utf-8', errors='replace').read()
for label, value in (('Total samples:' if unit == 'samples' else
                      'Total period:', total),
                     ('Distinct stacks:', len(stacks)),
                     ('Processes:', len(procs))):
    if not re.search(r'^%s +%s( ns \(.*\))?$' % (label, re.escape('{:,}'.format(value))),
                     text, re.M):
        errors.append('text: no line %r %s' % (label, '{:,}'.format(value)))
for line in errors[:20]:
    print('  ' + line[:400])
sys.exit(1 if errors else 0)
PY

# compare NAME FOLDED [flamereport INPUTS...]: flamereport over INPUTS (FOLDED
# itself when none) against the reference computed from FOLDED.
compare() {
  local name=$1 folded=$2; shift 2
  [ $# -gt 0 ] || set -- "$folded"
  local depth=${DEPTH:-2} width=${WIDTH:-3} unit=${UNIT:-samples}
  local opts=(--top 0 --depth "$depth" --width "$width")
  if ! "$REPORT" "${opts[@]}" -f json "$@" > "$T/r.json" 2> "$T/err" ||
     ! "$REPORT" "${opts[@]}" -f csv "$@" > "$T/r.csv" 2>> "$T/err" ||
     ! "$REPORT" "${opts[@]}" "$@" > "$T/r.txt" 2>> "$T/err"; then
    bad "$name: flamereport failed"; cat "$T/err"; return
  fi
  if python3 "$T/reference.py" "$folded" "$T/r.json" "$T/r.csv" "$T/r.txt" "$depth" "$width" "$unit"; then
    ok "$name"
  else
    bad "$name: differs from the independent computation (above)"
  fi
}

golden() {
  # FlameGraph's example profile, folded by stackcollapse-perf.pl, and our
  # recordings cxx-fp and cxx-dwarf, folded by it (large counts: periods).
  local E=$TESTDATA/expected/flamefold EX=$T/example.folded
  local FP=$TESTDATA/expected/flamefold/cxx-fp-collapsed-none.txt
  local DW=$TESTDATA/expected/flamefold/cxx-dwarf-collapsed-none.txt
  zcat "$E/example-perf-stacks-collapsed-none.txt.gz" > "$EX"
  compare "recursion, ties, odd names" "$D/recursion.folded"
  DEPTH=4 WIDTH=10 compare "recursion, deep trees" "$D/recursion.folded"
  compare "cxx-dwarf (folded)" "$DW"
  compare "cxx-fp (folded)" "$FP"
  DEPTH=1 WIDTH=1 compare "example (folded)" "$EX"
  # perf script text and gzip: flamereport folds them itself.
  # Their counts are sums of periods, except for tracepoints and the example
  # (perf of 2015 printed no period).
  UNIT=period compare "cxx-fp perf script" "$E/cxx-fp-collapsed-none.txt" "$TESTDATA/perf-script/cxx-fp.txt"
  UNIT=period compare "cxx-dwarf perf script" "$E/cxx-dwarf-collapsed-none.txt" "$TESTDATA/perf-script/cxx-dwarf.txt"
  compare "tracepoint perf script" "$E/tracepoint-collapsed-none.txt" "$TESTDATA/perf-script/tracepoint.txt"
  compare "example perf script, gzip" "$EX" \
    "$TESTDATA/flamegraph-tests/example-perf-stacks.txt.gz"
  # perf.data recorded here (testdata/perf-data): the reference is the
  # case's default.folded, printed by perf script | stackcollapse-perf.pl;
  # symbols come only from the case's files, as in golden-perf-data.
  local P=$TESTDATA/perf-data c
  for c in fp-user two-events jit system-wide; do
    [ -f "$P/$c/perf.data" ] && [ -f "$P/$c/default.folded" ] || { bad "perf.data $c: no perf.data or default.folded in $P/$c"; continue; }
    HOME=/nonexistent UNIT=period compare "perf.data $c" "$P/$c/default.folded" \
      --symfs "$P/root" --kallsyms "$P/$c/kallsyms" "$P/$c/perf.data"
  done
  # Several inputs add up, as flamefold adds them.
  cat "$FP" "$DW" > "$T/both.folded"
  compare "two inputs" "$T/both.folded" "$FP" "$DW"
  # --top N cuts each table to the first N of the full ranking.
  "$REPORT" --top 0 -f csv "$DW" | head -6 > "$T/all"
  "$REPORT" --top 5 -f csv "$DW" > "$T/top5"
  cmp -s "$T/all" "$T/top5" && ok "--top 5" || { bad "--top 5"; diff "$T/all" "$T/top5"; }
  # The same output on every run.
  "$REPORT" "$EX" > "$T/a"; "$REPORT" "$EX" > "$T/b"
  cmp -s "$T/a" "$T/b" && ok "deterministic" || bad "two runs differ"
  # JSON stays valid whatever the bytes of the names.
  printf 'p;\x01ctl;"q\\\\;\xc0\xafbad 3\n' > "$T/odd.folded"
  "$REPORT" -f json "$T/odd.folded" | python3 -c 'import json,sys; json.load(sys.stdin)' &&
    ok "json escaping" || bad "invalid JSON for odd names"
}

# expect NAME STATUS STDERR-REGEX ARGS...
expect() {
  local name=$1 status=$2 re=$3; shift 3
  "$REPORT" "$@" > "$T/out" 2> "$T/err"
  local got=$?
  if [ "$got" != "$status" ]; then
    bad "$name: exit status $got, want $status"; cat "$T/err"; return
  fi
  if [ -n "$re" ] && ! grep -Eq -- "$re" "$T/err"; then
    bad "$name: stderr does not match /$re/:"; cat "$T/err"; return
  fi
  ok "$name"
}

cli() {
  local f=$D/recursion.folded
  expect "bad format" 2 "^flamereport: error: --format is text, csv or json, not 'xml'$" --format xml "$f"
  expect "bad top" 2 '^flamereport: error: --top takes' --top=-3 "$f"
  expect "top needs a value" 2 '^flamereport: error: Option top requires an argument' --top
  expect "unknown option" 2 '^flamereport: error: Unknown option: frob' --frob "$f"
  expect "hint" 2 "^Try 'flamereport --help'" --frob "$f"
  expect "missing file" 1 "^flamereport: error: $T/nope: No such file" "$T/nope"
  printf 'nothing\nhere\n' > "$T/junk"
  expect "no samples" 1 "^flamereport: error: $T/junk: no samples found: 2 line" "$T/junk"
  expect "ok" 0 '' "$f"
  expect "skipped line warned" 0 'warning: 1 folded line\(s\) without a count' "$f"
  expect "quiet" 0 '' -q "$f"
  [ ! -s "$T/err" ] && ok "quiet: no warnings" || bad "quiet printed: $(cat "$T/err")"
  printf 'a;b 1\n%s 2\n' "$(head -c 100 /dev/zero | tr '\0' x)" > "$T/long"
  expect "--max-line-length skips and warns" 0 'warning: 1 folded line\(s\) without a count were skipped \(first: '"$T"'/long:2\)' --max-line-length 50 "$T/long"
  expect "bad --max-line-length" 2 "max-line-length takes a number of bytes, 1 or more" --max-line-length 0 "$f"
  : > "$T/empty"
  expect "empty input" 0 'warning: no samples in the input' "$T/empty"
  expect "stdin" 0 '' -f csv - < "$f"
  cmp -s "$T/out" <("$REPORT" -f csv "$f" 2>/dev/null) && ok "stdin = file" || bad "stdin differs"
  expect "-o FILE" 0 '' -o "$T/o.txt" "$f"
  cmp -s "$T/o.txt" <("$REPORT" "$f" 2>/dev/null) && ok "-o writes the report" || bad "-o output differs"
  "$REPORT" --help > "$T/out" 2> "$T/err"
  [ $? = 0 ] && grep -q '^Usage: flamereport' "$T/out" && ok "--help" || bad "--help"
  "$REPORT" --version | grep -Eq '^flamereport [0-9]' && ok "--version" || bad "--version"
  "$REPORT" --top 0 "$TESTDATA/expected/flamefold/example-perf-stacks-collapsed-none.txt.gz" 2> "$T/err" | head -1 > /dev/null
  st=${PIPESTATUS[0]}
  [ "$st" = 0 ] && [ ! -s "$T/err" ] && ok "closed pipe" || { bad "closed pipe: status $st"; cat "$T/err"; }
}

case "${1:-golden}" in
  golden) golden ;;
  cli) cli ;;
  *) echo "usage: $0 [golden|cli]"; exit 2 ;;
esac
exit $fail
