#!/bin/bash
# Differential fuzz: flamefold against stackcollapse-perf.pl on generated awkward perf script
# transcripts (fixed seed; see fold_vs_perl.py). Skips (exit 77) without a FlameGraph checkout at
# $FLAMEGRAPH_DIR or /tmp/FlameGraph. Stops generating after FUZZ_TIME_LIMIT seconds (default 45)
# so the test stays under a minute on a loaded machine; FUZZ_FILES / FUZZ_SEED widen or vary it.
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
PERL_SCRIPT=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
if [ ! -f "$PERL_SCRIPT" ]; then
  echo "SKIP: fold-vs-perl: no FlameGraph checkout ($PERL_SCRIPT missing; set FLAMEGRAPH_DIR)"
  exit 77
fi
if ! command -v perl > /dev/null || ! command -v python3 > /dev/null; then
  echo "SKIP: fold-vs-perl: needs perl and python3"
  exit 77
fi
FOLD=$BUILD_DIR/src/tools/flamefold
if [ ! -x "$FOLD" ]; then
  echo "fold-vs-perl: error: $FOLD is not built" >&2
  exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp "$FOLD" "$TMP/flamefold"  # immune to a rebuild during the run
python3 "$(dirname "$0")/fold_vs_perl.py" --flamefold "$TMP/flamefold" \
  --perl-script "$PERL_SCRIPT" --seed "${FUZZ_SEED:-20261122}" --files "${FUZZ_FILES:-25}" \
  --time-limit "${FUZZ_TIME_LIMIT:-45}"
exit $?
