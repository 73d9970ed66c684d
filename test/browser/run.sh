#!/bin/bash
# Runs a test script (flamesvg.test.js unless one is named) in Debian's
# headless Chromium through playwright-core, with the npm packages it drives
# (all pinned in package-lock.json). Without node, chromium or the npm packages:
# exit 77 (skipped), or a failure under CI=true (test/missing.sh).
# Environment from meson: BUILD_DIR, TESTDATA.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../missing.sh"
BUILD_DIR=${BUILD_DIR:-$here/../../build}
TESTDATA=${TESTDATA:-$here/../../testdata}
if ! command -v node >/dev/null; then
  missing "node (apt-get install nodejs npm)"
fi
if [ ! -x /usr/bin/chromium ]; then
  missing "/usr/bin/chromium (apt-get install chromium)"
fi
script=${1:-flamesvg.test.js}
installed=1
for package in playwright-core ajv d3 d3-flame-graph speedscope; do
  [ -d "$here/node_modules/$package" ] || installed=0
done
if [ $installed = 0 ]; then
  if ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null 2>&1); then
    missing "the npm packages: npm ci failed in $here (no registry access?)"
  fi
fi
export FLAMESVG=$BUILD_DIR/src/tools/flamesvg TESTDATA
export FLAMEFOLD=$BUILD_DIR/src/tools/flamefold
export FLAMESCOPE=$BUILD_DIR/src/tools/flamescope
exec node "$here/$script"
