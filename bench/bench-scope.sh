#!/bin/bash
# bench-scope.sh [SAMPLES [SECONDS]]: flamescope's page of a recording of SAMPLES samples (default
# 1,000,000) over SECONDS seconds (default 600): gen-perf-script.py's mixed transcript with those
# times, 100,000 distinct stacks drawn from, a random period each. Times writing the page (read,
# fold on one thread, cells, page) against flamefold's fold of the same text on one thread, for
# scale, and notes the page's size; checks that the page holds every sample. Then the page of the
# same samples with one period for all (gen-perf-script.py --period), as a cpu-clock recording at
# a fixed rate has them. Then, in headless Chromium (bench-scope.js), the first page's load and
# the time a selection takes from the click to the graph painted, for ranges of 1, 10 and 60
# seconds and the whole recording.
# Needs node, /usr/bin/chromium and playwright-core (`npm ci` in test/browser) for the browser
# figures; says it skipped them otherwise. Environment: lib.sh's (RUNS, BUILD_DIR, SEED, ...).
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup scope flamescope flamefold
samples=${1:-1000000} seconds=${2:-600}
input=$out/scope-$samples-$seconds-$SEED.txt
if [ ! -s "$input" ]; then
  python3 bench/gen-perf-script.py --samples "$samples" --seconds "$seconds" --seed "$SEED" \
    -o "$input.tmp" && mv "$input.tmp" "$input" ||
    { echo "bench-scope: error: gen-perf-script.py failed" >&2; exit 1; }
fi
cat "$input" > /dev/null  # into the page cache

group "flamescope's page of $samples samples over $seconds s" \
  "$input: $(du -mL "$input" | cut -f1) MB of perf script text, $samples samples from 100,000 distinct stacks, a random period each"
measure page "flamescope -q $input" \
  scale "flamefold -q --jobs 1 $input"
page=$out/page.out
note "the page: $(du -m "$page" | cut -f1) MB ($(stat -c %s "$page") bytes, $(awk -v b="$(stat -c %s "$page")" -v n="$samples" 'BEGIN { printf "%.1f", b / n }') bytes a sample); $(wc -l < "$out/scale.out") distinct stacks folded"
check "the page's cells hold all $samples samples" \
  [ "$(flamescope -q --per-second "$input" | awk 'NR > 1 { n += $2 } END { print n }')" = "$samples" ]

# The same samples as a cpu-clock recording at a fixed rate gives them: one period for all, which
# the page stores once.
fixed=$out/scope-$samples-$seconds-$SEED-p1000000.txt
if [ ! -s "$fixed" ]; then
  python3 bench/gen-perf-script.py --samples "$samples" --seconds "$seconds" --seed "$SEED" \
    --period 1000000 -o "$fixed.tmp" && mv "$fixed.tmp" "$fixed" ||
    { echo "bench-scope: error: gen-perf-script.py failed" >&2; exit 1; }
fi
cat "$fixed" > /dev/null
group "flamescope's page of $samples samples over $seconds s, one period" \
  "$fixed: the same stacks and times as cpu-clock samples of period 1000000 each"
measure fixed "flamescope -q $fixed"
note "the page: $(du -m "$out/fixed.out" | cut -f1) MB ($(stat -c %s "$out/fixed.out") bytes, $(awk -v b="$(stat -c %s "$out/fixed.out")" -v n="$samples" 'BEGIN { printf "%.1f", b / n }') bytes a sample)"

if [ ! -x /usr/bin/chromium ] || ! command -v node > /dev/null ||
    [ ! -d test/browser/node_modules/playwright-core ]; then
  note "the browser figures need node, /usr/bin/chromium and test/browser's playwright-core (npm ci there): skipped"
  finish
fi
group "flamescope's page in headless Chromium, a selection" \
  "the page of $samples samples over $seconds s; the time from the click on a selection's last cell to the graph painted (first cell clicked before), median (range) of \$CLICKS rounds"
BENCH_GROUP=$group_title SCOPE_COMMAND="flamescope $input" node bench/bench-scope.js "$page" ||
  failed=1
finish
