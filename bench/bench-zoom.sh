#!/bin/bash
# bench-zoom.sh [FOLDED]: click-to-zoom time in headless Chromium on the SVG
# flamesvg draws of FOLDED and on flamegraph.pl's of the same file, in the
# same browser, one after the other (bench-zoom.js says what is timed: from
# the click to the next frame painted; $CLICKS clicks, default 9, each then
# Reset Zoom; median and range). FOLDED defaults to the fold of the 200 MiB
# transcript shaped like large C++ services (corpus.sh, made once in
# bench/out/). flamegraph.pl from FLAMEGRAPH_PL (default
# /tmp/FlameGraph/flamegraph.pl; its SVG is left out if absent).
# Needs node, /usr/bin/chromium and playwright-core (test/browser: npm ci).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$HERE/../build}
PERL_FG=${FLAMEGRAPH_PL:-/tmp/FlameGraph/flamegraph.pl}
. "$HERE/corpus.sh"
if [ ! -d "$HERE/../test/browser/node_modules/playwright-core" ]; then
  echo "bench-zoom: playwright-core missing: run npm ci in test/browser" >&2
  exit 1
fi
input=${1:-}
if [ -z "$input" ]; then
  input=$(cxx_service_fold "$HERE/out" "$BUILD_DIR/src/tools/flamefold")
fi
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
"$BUILD_DIR/src/tools/flamesvg" "$input" > "$TMP/flamesvg.svg"
svgs=("flamesvg=$TMP/flamesvg.svg")
if [ -f "$PERL_FG" ]; then
  perl "$PERL_FG" "$input" > "$TMP/perl.svg" 2>/dev/null
  svgs+=("flamegraph.pl=$TMP/perl.svg")
fi
sizes="flamesvg $(du -k "$TMP/flamesvg.svg" | cut -f1) KB"
[ -f "$TMP/perl.svg" ] && sizes+=", flamegraph.pl $(du -k "$TMP/perl.svg" | cut -f1) KB"
echo "input: $input; SVGs: $sizes"
node "$HERE/bench-zoom.js" "${svgs[@]}"
