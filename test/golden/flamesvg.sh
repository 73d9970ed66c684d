#!/bin/bash
# Golden tests of flamesvg against flamegraph.pl.
#
# Each case of testdata/flamesvg/cases.txt runs flamesvg in a scratch copy
# of testdata/flamesvg and compares every frame (title, x, y, width, height,
# fill, label) with expected/NAME.svg, which flamegraph.pl printed (its
# script section removed to keep the files small). --cp cases also compare
# the palette.map left behind. Our output must be well-formed XML and the
# same bytes on a second run. Then a few behaviours (stdin, gzip/zstd,
# unsorted input, empty input, --icicle, --max-frames, abbreviations), 13
# variants of larger profiles (variants/) and 125 drawings of random inputs
# (random.tar.gz), each compared with flamegraph.pl's stored drawing.
#
# BLESS=1 rewrites expected/, variants/ and random.tar.gz from flamegraph.pl
# (FLAMEGRAPH_PL, default /tmp/FlameGraph/flamegraph.pl).
set -u
BUILD_DIR=${BUILD_DIR:-build}
TESTDATA=${TESTDATA:-testdata}
SVG=$(cd "$BUILD_DIR" && pwd)/src/tools/flamesvg
DATA=$(cd "$TESTDATA/flamesvg" && pwd)
PERL_FG=${FLAMEGRAPH_PL:-/tmp/FlameGraph/flamegraph.pl}
[ -x "$SVG" ] || { echo "flamesvg not built: $SVG"; exit 1; }
. "$(dirname "$0")/../missing.sh"
command -v python3 >/dev/null || missing "python3 (apt-get install python3)"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
if [ "${BLESS:-0}" = 1 ] && [ ! -f "$PERL_FG" ]; then
  echo "BLESS=1 needs flamegraph.pl at $PERL_FG"; exit 1
fi
# A private copy: a rebuild of the build directory during the run cannot
# swap the binary under the test.
cp "$SVG" "$TMP/flamesvg" && SVG=$TMP/flamesvg
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# svgframes.py LIST: frame-by-frame comparison of the pairs in LIST.
FRAMES=$(cd "$(dirname "$0")" && pwd)/svgframes.py
# compare_all LIST: compares every pair listed; counts the failures.
compare_all() {  # compare_all LIST [quiet]: quiet prints only failures
  python3 "$FRAMES" "$1" > "$1.out"
  if [ "${2:-}" = quiet ]; then grep -v '^ok' "$1.out"; else cat "$1.out"; fi
  failures=$((failures + $(grep -c '^FAIL' "$1.out")))
}
wellformed() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
strip_script() { sed '/<script/,/<\/script>/d'; }

# --- larger profiles, drawn by flamegraph.pl in 13 variants -------------------
# variants/NAME.svg.gz is flamegraph.pl's drawing (script removed, gzip -9n)
# of FlameGraph's example profile (stackcollapse-perf.pl's output, kept in
# testdata/expected/flamefold/), of our cxx-dwarf recording, and of
# difffolded.pl -n between our cxx-fp and cxx-dwarf recordings.
variants() {
  local V=$DATA/variants E EX DW DF name args
  E=$(cd "$TESTDATA/expected/flamefold" && pwd)
  EX=$TMP/example.folded DW=$E/cxx-dwarf-collapsed-none.txt
  DF=$(cd "$TESTDATA/flamediff" && pwd)/cxx-fp_cxx-dwarf.n.expected
  zcat "$E/example-perf-stacks-collapsed-none.txt.gz" > "$EX"
  mkdir -p "$V"
  : > "$TMP/variants.list"
  while read -r name args; do
    if [ "${BLESS:-0}" = 1 ]; then
      eval "perl '$PERL_FG' $args" 2>/dev/null | strip_script | gzip -9n > "$V/$name.svg.gz"
      echo "blessed variants/$name.svg.gz"
      continue
    fi
    [ -f "$V/$name.svg.gz" ] || { fail "variant $name: no $V/$name.svg.gz (BLESS=1 makes it)"; continue; }
    eval "'$SVG' $args" > "$TMP/variant-$name.svg" 2>/dev/null || { fail "variant $name: flamesvg failed"; continue; }
    printf 'variant %s\t%s\t%s\n' "$name" "$TMP/variant-$name.svg" "$V/$name.svg.gz" >> "$TMP/variants.list"
  done <<'LIST'
default --hash "$EX"
inverted --hash --inverted "$EX"
reverse --hash --reverse "$EX"
flamechart --hash --flamechart "$EX"
minwidth1pct --hash --minwidth 1% "$EX"
layout --hash --width 800 --height 20 --fontsize 10 --fonttype monospace --title 'Custom title' --subtitle sub --countname ms --nametype Frame: "$EX"
java-grey --hash --colors java --bgcolors grey "$EX"
nohash "$EX"
dwarf --hash "$DW"
dwarf-mem --hash --colors mem --bgcolors '#f0f0f0' "$DW"
dwarf-java-nohash --colors java "$DW"
diff --hash "$DF"
diff-negate --hash --negate "$DF"
LIST
  [ "${BLESS:-0}" = 1 ] || compare_all "$TMP/variants.list"
}

# --- small random inputs, each drawn with several option sets ------------------
# random.tar.gz holds random-SEED.folded (fixed seeds 1-25: small folded files
# mixing unicode, annotations, "-"/"--", empty frames, fractional and zero
# counts, tabs, duplicates, differential lines) and random-SEED.K.svg,
# flamegraph.pl's drawing with RANDOM_OPTS[K] (script removed), or
# random-SEED.K.exit when flamegraph.pl failed (its exit status).
RANDOM_OPTS=("" "--minwidth 0 --hash --reverse" "--flamechart --minwidth 0 --colors java --inverted"
             "--negate --minwidth 0" "--colors chain --total 500 --factor 0.5")
random_inputs() {
  local R=$TMP/random seed k opts oe pe
  mkdir -p "$R"
  if [ "${BLESS:-0}" = 1 ]; then
    random_bless "$R"; return
  fi
  [ -f "$DATA/random.tar.gz" ] || { fail "no $DATA/random.tar.gz (BLESS=1 makes it)"; return; }
  tar -xzf "$DATA/random.tar.gz" -C "$R"
  : > "$TMP/random.list"
  for seed in $(seq 1 25); do
    [ -f "$R/random-$seed.folded" ] || { fail "random.tar.gz has no random-$seed.folded"; continue; }
    for k in "${!RANDOM_OPTS[@]}"; do
      opts=${RANDOM_OPTS[$k]}
      # shellcheck disable=SC2086
      "$SVG" $opts "$R/random-$seed.folded" > "$R/ours-$seed.$k.svg" 2>/dev/null; oe=$?
      pe=0; [ -f "$R/random-$seed.$k.exit" ] && pe=$(cat "$R/random-$seed.$k.exit")
      if [ "$pe" != "$oe" ]; then fail "random $seed [$opts]: exit $oe, flamegraph.pl $pe"; continue; fi
      [ "$pe" = 0 ] || continue
      printf 'random %s [%s]\t%s\t%s\n' "$seed" "$opts" "$R/ours-$seed.$k.svg" \
        "$R/random-$seed.$k.svg" >> "$TMP/random.list"
    done
  done
  compare_all "$TMP/random.list" quiet
  echo "random inputs: $(wc -l < "$TMP/random.list") drawings compared with flamegraph.pl's"
}

random_bless() {  # random_bless DIR: makes random.tar.gz afresh from DIR
  local R=$1 seed k pe
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
  for seed in $(seq 1 25); do
    python3 "$TMP/random.py" "$seed" > "$R/random-$seed.folded"
    for k in "${!RANDOM_OPTS[@]}"; do
      # shellcheck disable=SC2086
      (cd "$R" && perl "$PERL_FG" ${RANDOM_OPTS[$k]} "random-$seed.folded" 2>/dev/null) |
        strip_script > "$R/random-$seed.$k.svg"
      pe=${PIPESTATUS[0]}
      if [ "$pe" != 0 ]; then rm "$R/random-$seed.$k.svg"; echo "$pe" > "$R/random-$seed.$k.exit"; fi
    done
  done
  (cd "$R" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - random-*) |
    gzip -9n > "$DATA/random.tar.gz"
  echo "blessed random.tar.gz"
}

# --- cases against flamegraph.pl's output --------------------------------
n=0
while IFS=$'\t' read -r name opts; do
  case "$name" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  work=$TMP/case-$name; mkdir -p "$work"; cp "$DATA"/*.folded "$DATA"/*.tsv "$DATA"/palette.map "$work"/
  exp=$DATA/expected/$name.svg
  if [ "${BLESS:-0}" = 1 ]; then
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
if [ "${BLESS:-0}" = 1 ]; then variants; random_inputs; exit 0; fi
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
else
  fail "zstd-input: no zstd command (apt-get install zstd)"
fi
tac palettes.folded > reversed.folded
"$SVG" reversed.folded > unsorted-file.svg 2>/dev/null
check unsorted-file-sorted cmp -s file.svg unsorted-file.svg
"$SVG" < reversed.folded > unsorted-stdin.svg 2>/dev/null
check unsorted-stdin-sorted cmp -s file.svg unsorted-stdin.svg
head -3 palettes.folded > h1.folded; tail -n +4 palettes.folded > h2.folded
"$SVG" h2.folded - < h1.folded > two.svg 2>/dev/null
check file-then-stdin cmp -s file.svg two.svg
# Unsorted standard input is read twice: a pipe from its copy, a regular
# file again from where it started (which need not be its first byte).
cat palettes.folded | "$SVG" > sorted-pipe.svg 2>/dev/null
check sorted-pipe cmp -s file.svg sorted-pipe.svg
cat reversed.folded | "$SVG" > unsorted-pipe.svg 2>/dev/null
check unsorted-pipe-sorted cmp -s file.svg unsorted-pipe.svg
cat h1.folded | "$SVG" - - h2.folded > pipe-twice.svg 2>/dev/null
check pipe-twice-then-file cmp -s file.svg pipe-twice.svg
tac h2.folded > h2r.folded
cat h1.folded | "$SVG" - h2r.folded > pipe-then-unsorted.svg 2>/dev/null
check pipe-then-unsorted-file cmp -s file.svg pipe-then-unsorted.svg
"$SVG" - h2r.folded - < h1.folded > redir-then-unsorted.svg 2>/dev/null
check redirect-then-unsorted-file cmp -s file.svg redir-then-unsorted.svg
# Disorder found late: thousands of sorted lines (megabytes, many blocks of
# the copy), then one that sorts first, cut by the limits on both reads.
awk 'BEGIN { for (i = 0; i < 40000; i++)
  printf "main;run;work%06d;leaf;x;y;z %d\n", i, i % 7 + 1 }' > late.folded
echo 'a;b;c;d;e;f;g 5' >> late.folded
"$SVG" --max-stack-depth 5 late.folded > late-file.svg 2>/dev/null
cat late.folded | "$SVG" --max-stack-depth 5 > late-pipe.svg 2> late-pipe.err
check late-disorder-pipe cmp -s late-file.svg late-pipe.svg
"$SVG" --max-stack-depth 5 < late.folded > late-redir.svg 2> late-redir.err
check late-disorder-redirect cmp -s late-file.svg late-redir.svg
check late-disorder-same-warnings cmp -s late-pipe.err late-redir.err
check late-disorder-cut-warned grep -q 'max-stack-depth' late-redir.err
tail -n +2 late.folded > late-rest.folded
"$SVG" late-rest.folded > late-rest.svg 2>/dev/null
{ read -r first_line; "$SVG" > late-offset.svg 2>/dev/null; } < late.folded
check late-disorder-redirect-from-offset cmp -s late-rest.svg late-offset.svg
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
# Off-CPU frames (flamefold --on-off's "_[o]"): blue in every palette,
# labels and titles without the annotation; other frames keep their palette.
printf 'main;work 6\nmain_[o];wait_[o];futex_wait_[o] 4\n' > onoff.folded
sed 's/_\[o\]//g' onoff.folded > plain.folded
grep '_\[o\]' onoff.folded > off.folded
# frame_fills SVG: each frame's title and fill but the root's ("all", which
# keeps the palette's colour).
frame_fills() { grep -o '<title>.*fill="[^"]*"' "$1" | grep -v '^<title>all ('; }
"$SVG" --hash --colors blue off.folded > off-blue.svg 2>/dev/null
frame_fills off-blue.svg > off-blue.fills
for pal in hot java mem nosuch; do
  "$SVG" --hash --colors $pal off.folded > off-$pal.svg 2>/dev/null
  frame_fills off-$pal.svg > off-$pal.fills
  check "off-cpu-blue-in-$pal" cmp -s off-$pal.fills off-blue.fills
done
check off-cpu-frames-drawn test "$(wc -l < off-blue.fills)" = 3
"$SVG" --hash onoff.folded > onoff.svg 2>/dev/null
"$SVG" --hash plain.folded > plain.svg 2>/dev/null
check off-cpu-wellformed wellformed onoff.svg
check off-cpu-no-annotation-shown test "$(grep -c '_\[o\]' onoff.svg)" = 0
check off-cpu-label-stripped grep -q '<title>futex_wait (4 samples, 40.00%)</title>' onoff.svg
fill_of() { sed -n "s/.*<title>$1 (.*fill=\"\([^\"]*\)\".*/\1/p" "$2"; }
work_fill=$(fill_of work plain.svg)
check off-cpu-on-cpu-keeps-palette test -n "$work_fill" -a "$(fill_of work onoff.svg)" = "$work_fill"

# --- larger profiles and random inputs ------------------------------------------
variants
random_inputs

if [ $failures -gt 0 ]; then echo "$failures flamesvg golden checks FAILED"; exit 1; fi
echo "all flamesvg golden checks passed"
