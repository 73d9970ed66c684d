#!/bin/bash
# bench-svg.sh [STACKS | cxx-service]: flamesvg against flamegraph.pl and inferno-flamegraph on one
# folded file, and on its lines shuffled (unsorted input is held, not streamed):
#   STACKS (default 100000): a generated file of that many distinct stacks of short names
#     (depth 5-40 over 3,000 names with shared prefixes, sorted as flamefold writes them);
#   cxx-service: flamefold's fold of the transcript shaped like large C++ services
#     (gen-perf-script.py --shape cxx-service, $SIZE_MB MiB, default 200: long template names).
# Checks that flamesvg draws the frames flamegraph.pl draws (test/golden/svgframes.py).
# inferno-flamegraph runs with --minwidth set to flamegraph.pl's 0.1 pixel as a percentage of the
# 1180 pixels the frames span (its default, 0.01%, draws other frames).
# Environment: SIZE_MB, and lib.sh's (RUNS, PERL_RUNS, FLAMEGRAPH_DIR, INFERNO_DIR, ...).
set -u
corpus=${1:-100000}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup svg flamesvg flamefold

if [ "$corpus" = cxx-service ]; then
  input=$(folded_transcript cxx-service "${SIZE_MB:-200}") ||
    { echo "bench-svg: error: no fold of the cxx-service transcript" >&2; exit 1; }
  what="flamefold's fold of the cxx-service transcript"
else
  input=bench/out/stacks-$corpus-seed$SEED.folded
  if [ ! -s "$input" ]; then
    python3 - "$corpus" "$SEED" > "$input.tmp" <<'PY' && mv "$input.tmp" "$input" || exit 1
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
names = ["f%d_%s" % (i, "x" * rng.randrange(0, 6)) for i in range(3000)]
seen, lines = set(), []
while len(lines) < n:
    # Shared prefixes, as real profiles have: the first frames come from a small set.
    stack = ";".join(names[rng.randrange(0, 8 + 4 * d)] for d in range(rng.randrange(5, 41)))
    if stack not in seen:
        seen.add(stack)
        lines.append("%s %d" % (stack, rng.randrange(1, 1000)))
lines.sort()
sys.stdout.write("\n".join(lines) + "\n")
PY
  fi
  what="$corpus distinct stacks of short names"
fi
cat "$input" > /dev/null  # into the page cache
shuffled=$out/shuffled.folded
sort -R --random-source=<(yes) "$input" > "$shuffled"

group "flamesvg, $what" "$input: $(du -m "$input" | cut -f1) MB, $(wc -l < "$input") stacks"
commands=(svg "flamesvg $input" svg-unsorted "flamesvg ${shuffled#"$root"/}")
have_inferno && commands+=(inferno "inferno-flamegraph --minwidth 0.00847457627118644 $input")
have_perl flamegraph.pl && commands+=(perl "perl $FLAMEGRAPH_DIR/flamegraph.pl $input")
measure "${commands[@]}"
check "flamesvg draws the same graph from unsorted input" cmp -s "$out/svg.out" "$out/svg-unsorted.out"
if have_perl flamegraph.pl; then
  check "flamesvg draws the frames flamegraph.pl draws" \
    python3 test/golden/svgframes.py "$out/svg.out" "$out/perl.out"
fi
if have_inferno; then
  note "frames drawn: flamesvg $(grep -o '<rect' "$out/svg.out" | wc -l), inferno-flamegraph $(grep -o '<rect' "$out/inferno.out" | wc -l) (each counts its background)"
fi
finish
