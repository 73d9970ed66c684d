#!/bin/bash
# Differential fuzz: flamefold against stackcollapse-perf.pl on generated awkward perf script
# transcripts (fixed seed; see fold_vs_perl.py).
#
# By default it compares with testdata/fold-vs-perl/seed-20261122.tar.gz: the 25 transcripts of
# the fixed seed and what stackcollapse-perf.pl (FlameGraph 41fee1f) printed for each under 12
# option sets. Nothing outside the repository is read.
#
# FLAMEGRAPH_DIR=DIR also runs the Perl script live beside flamefold (differences are shrunk to a
# minimal input); FUZZ_SEED, FUZZ_FILES and FUZZ_TIME_LIMIT (seconds, default 45) widen or vary
# that run, and need FLAMEGRAPH_DIR. BLESS=1 rewrites the archive from
# ${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl.
set -u
: "${BUILD_DIR:?BUILD_DIR must be set (meson test sets it)}"
: "${TESTDATA:?TESTDATA must be set (meson test sets it)}"
here=$(cd "$(dirname "$0")" && pwd)
ARCHIVE=$TESTDATA/fold-vs-perl/seed-20261122.tar.gz
FOLD=$BUILD_DIR/src/tools/flamefold
if [ ! -x "$FOLD" ]; then
  echo "fold-vs-perl: error: $FOLD is not built" >&2
  exit 1
fi
if ! command -v python3 > /dev/null; then
  . "$here/../missing.sh"
  missing "python3 (apt-get install python3)"
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp "$FOLD" "$TMP/flamefold"  # immune to a rebuild during the run

live=${FLAMEGRAPH_DIR:-}
if [ "${BLESS:-0}" = 1 ]; then
  PERL_SCRIPT=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
  [ -f "$PERL_SCRIPT" ] || { echo "fold-vs-perl: error: BLESS=1 needs $PERL_SCRIPT"; exit 1; }
  mkdir -p "$(dirname "$ARCHIVE")"
  exec python3 "$here/fold_vs_perl.py" --flamefold "$TMP/flamefold" \
    --perl-script "$PERL_SCRIPT" --bless "$ARCHIVE"
fi
if [ -z "$live" ] && [ -n "${FUZZ_SEED:-}${FUZZ_FILES:-}" ]; then
  echo "fold-vs-perl: error: FUZZ_SEED and FUZZ_FILES need a live Perl script: set FLAMEGRAPH_DIR"
  exit 1
fi

status=0
if [ ! -f "$ARCHIVE" ]; then
  echo "fold-vs-perl: error: $ARCHIVE is missing (BLESS=1 makes it)"
  status=1
else
  python3 "$here/fold_vs_perl.py" --flamefold "$TMP/flamefold" --expected "$ARCHIVE" || status=1
fi
if [ -n "$live" ]; then
  if [ ! -f "$live/stackcollapse-perf.pl" ] || ! command -v perl > /dev/null; then
    echo "fold-vs-perl: error: FLAMEGRAPH_DIR=$live: needs perl and $live/stackcollapse-perf.pl"
    exit 1
  fi
  python3 "$here/fold_vs_perl.py" --flamefold "$TMP/flamefold" \
    --perl-script "$live/stackcollapse-perf.pl" --seed "${FUZZ_SEED:-20261122}" \
    --files "${FUZZ_FILES:-25}" --time-limit "${FUZZ_TIME_LIMIT:-45}" || status=1
fi
exit $status
