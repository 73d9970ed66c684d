#!/bin/bash
# bench-zoom.sh [FOLDED]: click-to-zoom in headless Chromium on the SVG flamesvg draws of FOLDED and
# on flamegraph.pl's SVG of the same file, in the same browser, one after the other
# (bench-zoom.js says what is timed: from the click to the next frame painted; $CLICKS clicks,
# default 9, each then Reset Zoom). FOLDED defaults to flamefold's fold of the transcript shaped
# like large C++ services ($SIZE_MB MiB, default 200).
# Needs node, /usr/bin/chromium and playwright-core (`npm ci` in test/browser); says it skipped
# otherwise. Environment: CLICKS, SIZE_MB, and lib.sh's.
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup zoom flamesvg flamefold
if [ ! -x /usr/bin/chromium ] || ! command -v node > /dev/null ||
    [ ! -d test/browser/node_modules/playwright-core ]; then
  echo "bench-zoom: needs node, /usr/bin/chromium and test/browser's playwright-core (npm ci there): skipped"
  exit 0
fi
input=${1:-}
if [ -z "$input" ]; then
  input=$(folded_transcript cxx-service "${SIZE_MB:-200}") ||
    { echo "bench-zoom: error: no fold of the cxx-service transcript" >&2; exit 1; }
fi
flamesvg "$input" > "$out/flamesvg.svg"
svgs=(main="$out/flamesvg.svg")
if have_perl flamegraph.pl; then
  perl "$FLAMEGRAPH_DIR/flamegraph.pl" "$input" > "$out/perl.svg" 2> /dev/null
  svgs+=(perl="$out/perl.svg")
fi
group "flamesvg's viewer, click to zoom in headless Chromium" \
  "$input drawn by flamesvg ($(du -k "$out/flamesvg.svg" | cut -f1) KB) and by flamegraph.pl; the time from a click to the next frame painted"
BENCH_GROUP=$group_title ZOOM_MAIN="flamesvg $input" \
  ZOOM_PERL="perl $FLAMEGRAPH_DIR/flamegraph.pl $input" node bench/bench-zoom.js "${svgs[@]}" ||
  failed=1
finish
