#!/bin/bash
# Runs flamesvg.test.js in Debian's headless Chromium through playwright-core
# (pinned in package-lock.json). Exit 77 (skipped) when node or chromium is
# missing. Environment from meson: BUILD_DIR, TESTDATA.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$here/../../build}
TESTDATA=${TESTDATA:-$here/../../testdata}
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (apt-get install nodejs npm)"; exit 77
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "SKIP: /usr/bin/chromium is not installed (apt-get install chromium)"; exit 77
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  if ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null 2>&1); then
    echo "SKIP: npm ci failed in $here (no registry access?)"; exit 77
  fi
fi
export FLAMESVG=$BUILD_DIR/src/tools/flamesvg TESTDATA
exec node "$here/flamesvg.test.js"
