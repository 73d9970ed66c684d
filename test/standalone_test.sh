#!/bin/bash
# The tests read only the repository (a fresh clone has nothing beside it): no
# test or bench script, nor a test definition, may name a shared folder beside
# the checkout or $SHARED. The FlameGraph checkout (/tmp/FlameGraph) is for
# BLESS=1 and for the opt-in live fuzzing (FLAMEGRAPH_DIR) only, which this
# cannot tell apart; a fresh clone's `scripts/bootstrap.sh test` is the full
# check.
set -u
here=$(cd "$(dirname "$0")" && pwd)
hits=$(grep -rnE '\.\./shared|\$\{?SHARED\b|/work/shared' "$here" "$here/../bench" \
         "$here/../meson.build" \
         --include='*.sh' --include='*.py' --include='*.cmd' --include='*.js' \
         --include='meson.build' | grep -v "^$here/standalone_test.sh:")
if [ -n "$hits" ]; then
  echo "FAIL: tests read outside the repository:"
  echo "$hits"
  exit 1
fi
echo "ok: no test or bench script reads outside the repository"
