#!/bin/bash
# Runs flamesvg.test.js in Debian's headless Chromium through playwright-core
# (pinned in package-lock.json). Without node, chromium or the npm packages:
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
if [ ! -d "$here/node_modules/playwright-core" ]; then
  if ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null 2>&1); then
    missing "playwright-core: npm ci failed in $here (no registry access?)"
  fi
fi
export FLAMESVG=$BUILD_DIR/src/tools/flamesvg TESTDATA
exec node "$here/flamesvg.test.js"
