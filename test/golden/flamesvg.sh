#!/bin/bash
# Golden tests of flamesvg against flamegraph.pl.
#
# Each case of testdata/flamesvg/cases.txt runs flamesvg in a scratch copy
# of testdata/flamesvg and compares every frame (title, x, y, width, height,
# fill, label) with expected/NAME.svg, which flamegraph.pl printed (its
# script section removed to keep the files small). --cp cases also compare
# the palette.map left behind. Our output must be well-formed XML and the
# same bytes on a second run. Then the 13 conformance variants of
# ../shared/conformance, and a few behaviours (stdin, gzip/zstd, unsorted
# input, empty input, --icicle, --max-frames, abbreviations).
#
# BLESS=1 rewrites expected/ from flamegraph.pl (FLAMEGRAPH_PL, default
# /tmp/FlameGraph/flamegraph.pl).
set -u
BUILD_DIR=${BUILD_DIR:-build}
TESTDATA=${TESTDATA:-testdata}
SHARED=${SHARED:-../shared}
SVG=$(cd "$BUILD_DIR" && pwd)/src/tools/flamesvg
DATA=$(cd "$TESTDATA/flamesvg" && pwd)
PERL_FG=${FLAMEGRAPH_PL:-/tmp/FlameGraph/flamegraph.pl}
[ -d "$SHARED" ] && SHARED=$(cd "$SHARED" && pwd)
[ -x "$SVG" ] || { echo "flamesvg not built: $SVG"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# A private copy: a rebuild of the build directory during the run cannot
# swap the binary under the test.
cp "$SVG" "$TMP/flamesvg" && SVG=$TMP/flamesvg
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# frames.py LIST: frame-by-frame comparison of the pairs in LIST; ours
# must be well-formed. flamegraph.pl writes --title/--subtitle unescaped, so those
# two lines of EXPECTED are escaped before parsing.
cat > "$TMP/frames.py" <<'PY'
import re, sys, xml.dom.minidom
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def fix_titles(text):
    def esc(m):
        body = m.group(2).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return m.group(1) + body + "</text>"
    return re.sub(r'(<text id="(?:title|subtitle)"[^>]*>)(.*)</text>', esc, text)
def frames(root):
    out = []
    for g in root.iter(NS + "g"):
        t, r, x = g.find(NS + "title"), g.find(NS + "rect"), g.find(NS + "text")
        if t is None or r is None:
            continue
        num = lambda k: round(float(r.get(k, "nan")), 1)
        out.append((t.text or "", num("x"), num("y"), num("width"), num("height"),
                    (r.get("fill") or "").replace(" ", ""),
                    (x.text or "") if x is not None else ""))
    return sorted(out)
def compare(ours_path, exp_path):
    """Returns None when equal, else what differs."""
    try:
        xml.dom.minidom.parse(ours_path)
    except Exception as e:
        return f"not well-formed: {e}"
    ours = ET.parse(ours_path).getroot()
    exp = ET.fromstring(fix_titles(open(exp_path, encoding="utf-8").read()).encode())
    a, b = frames(ours), frames(exp)
    if a != b:
        sa, sb = set(a), set(b)
        msg = [f"{len(a)} frames vs {len(b)} expected"]
        msg += ["only ours:     " + str(f) for f in sorted(sa - sb)[:3]]
        msg += ["only expected: " + str(f) for f in sorted(sb - sa)[:3]]
        return "\n  ".join(msg)
    for k in ("width", "height"):
        if ours.get(k) != exp.get(k):
            return f"svg {k}: {ours.get(k)} vs {exp.get(k)}"
    for id_ in ("title", "subtitle"):
        te = [e.text for e in ours.iter(NS + "text") if e.get("id") == id_]
        tx = [e.text for e in exp.iter(NS + "text") if e.get("id") == id_]
        if te != tx:
            return f"{id_}: {te} vs {tx}"
    return None
# Input: lines "NAME<TAB>OURS<TAB>EXPECTED"; prints "ok NAME" or "FAIL NAME".
bad = 0
for line in open(sys.argv[1], encoding="utf-8"):
    name, ours_path, exp_path = line.rstrip("\n").split("\t")
    why = compare(ours_path, exp_path)
    if why is None:
        print("ok " + name)
    else:
        bad += 1
        print(f"FAIL: {name}: frames differ from flamegraph.pl's\n  {why}")
sys.exit(1 if bad else 0)
PY
# compare_all LIST: compares every pair listed; counts the failures.
compare_all() {  # compare_all LIST [quiet]: quiet prints only failures
  python3 "$TMP/frames.py" "$1" > "$1.out"
  if [ "${2:-}" = quiet ]; then grep -v '^ok' "$1.out"; else cat "$1.out"; fi
  failures=$((failures + $(grep -c '^FAIL' "$1.out")))
}
wellformed() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
strip_script() { sed '/<script/,/<\/script>/d'; }

# --- cases against flamegraph.pl's output --------------------------------
n=0
while IFS=$'\t' read -r name opts; do
  case "$name" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  work=$TMP/case-$name; mkdir -p "$work"; cp "$DATA"/*.folded "$DATA"/*.tsv "$DATA"/palette.map "$work"/
  exp=$DATA/expected/$name.svg
  if [ "${BLESS:-0}" = 1 ]; then
    [ -f "$PERL_FG" ] || { echo "BLESS=1 needs flamegraph.pl at $PERL_FG"; exit 1; }
    (cd "$work" && eval "perl '$PERL_FG' $opts" 2>/dev/null) | strip_script > "$exp"
    case "$name" in cp*) cp "$work/palette.map" "$DATA/expected/$name.palette.map" ;; esac
    echo "blessed $name"
    continue
  fi
  [ -f "$exp" ] || { fail "$name: no expected/$name.svg (run with BLESS=1)"; continue; }
  cp "$DATA"/palette.map "$work"/
  if ! (cd "$work" && eval "'$SVG' $opts" > out.svg 2> err.txt); then
    fail "$name: flamesvg failed: $(head -3 "$work/err.txt")"; continue
  fi
  printf '%s\t%s\t%s\n' "$name" "$work/out.svg" "$exp" >> "$TMP/cases.list"
  case "$name" in cp*)
    cmp -s "$work/palette.map" "$DATA/expected/$name.palette.map" ||
      { fail "$name: palette.map differs"; diff "$work/palette.map" "$DATA/expected/$name.palette.map" | head -5; continue; } ;;
  esac
  (cd "$work" && cp "$DATA"/palette.map . && eval "'$SVG' $opts" > again.svg 2>/dev/null)
  cmp -s "$work/out.svg" "$work/again.svg" || { fail "$name: a second run gave other bytes"; continue; }
done < "$DATA/cases.txt"
[ "${BLESS:-0}" = 1 ] && exit 0
[ -f "$TMP/cases.list" ] && compare_all "$TMP/cases.list"

# --- behaviours -------------------------------------------------------------
cd "$TMP"
cp "$DATA"/*.folded .
check() {  # check NAME COMMAND...: the command must succeed
  local name=$1; shift
  if "$@"; then echo "ok $name"; else fail "$name"; fi
}
"$SVG" palettes.folded > file.svg 2>/dev/null
"$SVG" < palettes.folded > stdin.svg 2>/dev/null
check stdin-equals-file cmp -s file.svg stdin.svg
gzip -c palettes.folded > p.gz && "$SVG" p.gz > gz.svg 2>/dev/null
check gzip-input cmp -s file.svg gz.svg
if command -v zstd >/dev/null; then
  zstd -q -c palettes.folded > p.zst && "$SVG" p.zst > zst.svg 2>/dev/null
  check zstd-input cmp -s file.svg zst.svg
fi
tac palettes.folded > reversed.folded
"$SVG" reversed.folded > unsorted-file.svg 2>/dev/null
check unsorted-file-sorted cmp -s file.svg unsorted-file.svg
"$SVG" < reversed.folded > unsorted-stdin.svg 2>/dev/null
check unsorted-stdin-sorted cmp -s file.svg unsorted-stdin.svg
head -3 palettes.folded > h1.folded; tail -n +4 palettes.folded > h2.folded
"$SVG" h2.folded - < h1.folded > two.svg 2>/dev/null
check file-then-stdin cmp -s file.svg two.svg
"$SVG" --inverted palettes.folded > inv.svg 2>/dev/null
"$SVG" --icicle palettes.folded > ice.svg 2>/dev/null
check icicle-is-inverted cmp -s inv.svg ice.svg
"$SVG" --colors java palettes.folded > j1.svg 2>/dev/null
"$SVG" -color=java palettes.folded > j2.svg 2>/dev/null
check getopt-abbreviation cmp -s j1.svg j2.svg
: > empty.folded
"$SVG" empty.folded > empty.svg 2> empty.err; status=$?
check empty-input-exit-2 test $status = 2
check empty-input-message grep -q "^flamesvg: error: " empty.err
check empty-input-svg wellformed empty.svg
"$SVG" invalid-bytes.folded > bytes.svg 2>/dev/null
check invalid-bytes-wellformed wellformed bytes.svg
check invalid-bytes-replaced grep -q $'bad\xef\xbf\xbd\xef\xbf\xbdbyte' bytes.svg
printf 'a;b 1\nnot a line\n\na;c 2\n' | "$SVG" > /dev/null 2> ignored.err
check ignored-lines-warning grep -q "^flamesvg: warning: ignored 2 lines" ignored.err
"$SVG" --max-frames 5 palettes.folded > max.svg 2>/dev/null
frames=$(grep -c '<title>' max.svg)
check max-frames-limit test "$frames" -le 5 -a "$frames" -ge 1
printf 'a;b 1\n%s 2\nc 3\n' "$(head -c 100 /dev/zero | tr '\0' x)" > longline.folded
"$SVG" --max-line-length 50 longline.folded > longline.svg 2> longline.err
check max-line-length-warned grep -q "^flamesvg: warning: 1 lines longer than the line limit were skipped" longline.err
check max-line-length-drawn-rest grep -q '<title>c (3 samples' longline.svg
"$SVG" --max-line-length 0 longline.folded > /dev/null 2>&1; status=$?
check max-line-length-zero-exit-2 test $status = 2
"$SVG" --width 10 palettes.folded > /dev/null 2>&1; status=$?
check usage-error-exit-2 test $status = 2

# --- the conformance corpus ------------------------------------------------
C=$SHARED/conformance
if [ ! -d "$C/flamegraph-perl-svg" ]; then
  echo "SKIP: $C is absent: the 13 flamegraph.pl variants were not compared"
  [ $failures = 0 ] && exit 77
  exit 1
fi
S=$C/flamegraph-perl-svg; D=$C/difffolded
while read -r name ref args; do
  eval "'$SVG' $args" > "conf-$name.svg" 2>/dev/null || { fail "conformance $name: flamesvg failed"; continue; }
  printf 'conformance %s\t%s\t%s\n' "$name" "$PWD/conf-$name.svg" "$S/$ref" >> "$TMP/conf.list"
done <<LIST
default example.default.svg --hash $S/example.folded
inverted example.inverted.svg --hash --inverted $S/example.folded
reverse example.reverse.svg --hash --reverse $S/example.folded
flamechart example.flamechart.svg --hash --flamechart $S/example.folded
minwidth example.minwidth1pct.svg --hash --minwidth 1% $S/example.folded
layout example.layout.svg --hash --width 800 --height 20 --fontsize 10 --fonttype monospace --title 'Custom title' --subtitle sub --countname ms --nametype Frame: $S/example.folded
java-grey example.java-grey.svg --hash --colors java --bgcolors grey $S/example.folded
mem work-dwarf.mem.svg --hash --colors mem --bgcolors '#f0f0f0' $S/work-dwarf.folded
dwarf work-dwarf.default.svg --hash $S/work-dwarf.folded
diff diff.svg --hash $D/fp-vs-dwarf.n.txt
diff-negate diff.negate.svg --hash --negate $D/fp-vs-dwarf.n.txt
nohash example.nohash.svg $S/example.folded
java-nohash work-dwarf.java-nohash.svg --colors java $S/work-dwarf.folded
LIST
compare_all "$TMP/conf.list"

# --- random inputs against a live flamegraph.pl (when it is installed) -------
# Fixed seeds: small folded files mixing unicode, annotations, "-"/"--",
# empty frames, fractional and zero counts, tabs, duplicates, differential
# lines; each drawn with several option sets by both programs.
if [ -f "$PERL_FG" ] && command -v perl >/dev/null; then
  cat > "$TMP/random.py" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
alpha = ["a", "b", "c", "ab", "_[k]", "x_[j]", "\u00e9", "\u51fd", "::", "java/x", " ", "",
         "-", "--", "q`r", "<&>"]
diff = r.random() < 0.3
lines = []
for _ in range(r.randrange(1, 30)):
    stack = ";".join(r.choice(alpha) for _ in range(r.randrange(0, 6)))
    count = r.choice(["0", "1", "2", "3.5", "7.", "10", "0.1", "123456", "5"])
    if diff or r.random() < 0.05:
        count = r.choice(["0", "1", "4", "2.5"]) + " " + count
    lines.append(stack + r.choice([" ", " ", " ", "\t", "  "]) + count)
    if r.random() < 0.1:
        lines.append(lines[-1])
if r.random() < 0.1:
    lines.append("garbage")
sys.stdout.buffer.write(("\n".join(lines) + "\n").encode())
PY
  : > "$TMP/random.list"
  for seed in $(seq 1 25); do
    python3 "$TMP/random.py" "$seed" > "random-$seed.folded"
    k=0
    for opts in "" "--minwidth 0 --hash --reverse" "--flamechart --minwidth 0 --colors java --inverted" \
                "--negate --minwidth 0" "--colors chain --total 500 --factor 0.5"; do
      k=$((k + 1))
      perl "$PERL_FG" $opts "random-$seed.folded" > "random-$seed-$k.perl.svg" 2>/dev/null; pe=$?
      "$SVG" $opts "random-$seed.folded" > "random-$seed-$k.svg" 2>/dev/null; oe=$?
      if [ $pe != $oe ]; then fail "random $seed [$opts]: exit $oe, flamegraph.pl $pe"; continue; fi
      printf 'random %s [%s]\t%s\t%s\n' "$seed" "$opts" "$PWD/random-$seed-$k.svg" \
        "$PWD/random-$seed-$k.perl.svg" >> "$TMP/random.list"
    done
  done
  compare_all "$TMP/random.list" quiet
  echo "random inputs: $(wc -l < "$TMP/random.list") drawings compared with flamegraph.pl"
else
  echo "note: $PERL_FG not found: random inputs not compared with a live flamegraph.pl"
fi

if [ $failures -gt 0 ]; then echo "$failures flamesvg golden checks FAILED"; exit 1; fi
echo "all flamesvg golden checks passed"
