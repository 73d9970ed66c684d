#!/bin/bash
# bench-fold.sh [SIZE_MB]: flamefold against stackcollapse-perf.pl and inferno-collapse-perf on
# one synthetic perf script transcript of SIZE_MB MiB (default 200; gen-perf-script.py, shape
# $SHAPE: mixed by default, cxx-service or distinct-names), then flamefold on the file named 10
# times, whose peak memory stays that of its distinct stacks. Checks that flamefold prints the
# Perl script's bytes with any number of threads, and that ten copies give ten times the counts.
# Environment: SHAPE, and lib.sh's (RUNS, PERL_RUNS, FLAMEGRAPH_DIR, INFERNO_DIR, ...).
set -u
size=${1:-200}
shape=${SHAPE:-mixed}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
setup fold flamefold
input=$(transcript "$shape" "$size") || { echo "bench-fold: error: generation failed" >&2; exit 1; }
cat "$input" > /dev/null  # into the page cache: the runs measure folding, not the disk
stacks=$(flamefold -q "$input" | wc -l)

group "flamefold, perf script text, $shape, $size MiB" \
  "$input: $(du -m "$input" | cut -f1) MB, $stacks distinct folded stacks"
commands=(fold "flamefold -q $input" fold-jobs1 "flamefold -q --jobs 1 $input")
have_inferno && commands+=(inferno "inferno-collapse-perf $input")
have_perl stackcollapse-perf.pl && commands+=(perl "perl $FLAMEGRAPH_DIR/stackcollapse-perf.pl $input")
measure "${commands[@]}"
check "--jobs 1 prints what the default prints" cmp -s "$out/fold.out" "$out/fold-jobs1.out"
if have_perl stackcollapse-perf.pl; then
  check "flamefold's output is byte-identical to stackcollapse-perf.pl's" \
    cmp -s "$out/perl.out" "$out/fold.out"
fi
# inferno-collapse-perf 0.11.14 counts samples where the Perl script sums their periods, and
# keeps parts of names the Perl rules cut, so its lines are compared, not required to agree.
have_inferno && note "inferno-collapse-perf's output: $(same_lines "$out/fold.out" "$out/inferno.out") as flamefold's"

group "flamefold, perf script text, $shape, $size MiB named 10 times" \
  "the same transcript as ten inputs (bash expands FILE{,,,,,,,,,} to FILE ten times): memory follows the distinct stacks, not the input"
measure fold10 "flamefold -q $input{,,,,,,,,,}" fold10-jobs1 "flamefold -q --jobs 1 $input{,,,,,,,,,}"
check "ten copies fold to ten times the counts" python3 - "$out/fold.out" "$out/fold10.out" <<'PY'
import sys
def read(path):
    with open(path, "rb") as f:
        return [line.rstrip(b"\n").rsplit(b" ", 1) for line in f]
one, ten = read(sys.argv[1]), read(sys.argv[2])
sys.exit(not (len(one) == len(ten) and
              all(a[0] == b[0] and int(a[1]) * 10 == int(b[1]) for a, b in zip(one, ten))))
PY
check "--jobs 1 prints what the default prints on ten copies" \
  cmp -s "$out/fold10.out" "$out/fold10-jobs1.out"
finish
