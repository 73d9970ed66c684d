#!/bin/bash
# scripts/bootstrap.sh demo|test|build
#
# All set-up on a fresh Debian machine, then:
#   demo   build flamefold and flamesvg only, fold the example profile in
#          testdata/ and render it to example.svg
#   test   build everything and run every test suite (unit, golden, cli,
#          browser, fuzz, ...); they read only the repository
#   build  only install, configure build/ (release) and compile
# Installs missing Debian packages with apt-get when run as root; otherwise
# prints the exact apt-get command and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
  demo|test|build) ;;
  *) echo "usage: scripts/bootstrap.sh demo|test|build" >&2; exit 2 ;;
esac

# What the build needs (Debian packages), and what the test suites need on
# top (commands: any provider will do, e.g. a node that ships its own npm;
# perf for flamerecord's test, clang for the fuzz targets, strace for the
# thread count's, go for pprof's reading of the pprof export).
build_pkgs="g++ meson ninja-build pkg-config libre2-dev libzstd-dev zlib1g-dev
  libboost-program-options-dev doctest-dev libelf-dev libdw-dev libarchive-dev
  libprotobuf-dev protobuf-compiler golang-github-google-pprof-dev"
# command:package pairs
test_cmds="python3:python3 perl:perl zstd:zstd gzip:gzip chromium:chromium
  node:nodejs npm:npm clang++:clang perf:linux-perf strace:strace
  go:golang-go"
# Debian packages the package test (test/deb_test.sh) builds and checks with.
test_pkgs="build-essential dpkg-dev debhelper lintian"

missing_pkgs() {
  local p out=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || out="$out $p"
  done
  echo "$out"
}

# shellcheck disable=SC2086
missing=$(missing_pkgs $build_pkgs)
if [ "$mode" = test ]; then
  # shellcheck disable=SC2086
  missing="$missing$(missing_pkgs $test_pkgs)"
  for pair in $test_cmds; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
  done
fi
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "bootstrap: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >/dev/null
  else
    echo "bootstrap: missing packages; run:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    exit 1
  fi
fi

if [ ! -f build/build.ninja ]; then
  meson setup build --buildtype=release >/dev/null
fi
# The libFuzzer targets need clang: they get a build of their own,
# build-fuzz, with every stage instrumented (fuzz/meson.build). The test
# suite's fuzz test runs them for a bounded time.
if [ "$mode" = test ] && command -v clang++ >/dev/null 2>&1; then
  if [ ! -f build-fuzz/build.ninja ]; then
    CXX=clang++ meson setup build-fuzz --buildtype=debugoptimized -Dfuzz=true \
      -Dtests=false -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
  fi
  # Every target of fuzz/ (fuzz.sh fails on one not built), not the tools.
  targets=()
  for f in fuzz/*_fuzzer.cc; do targets+=("fuzz/$(basename "$f" .cc)"); done
  ninja -C build-fuzz "${targets[@]}"
fi
# The demo needs only the two tools it runs.
if [ "$mode" = demo ]; then
  ninja -C build src/tools/flamefold src/tools/flamesvg
else
  ninja -C build
fi

case "$mode" in
  build)
    ;;
  demo)
    example=testdata/example/example-perf.txt.gz
    build/src/tools/flamefold "$example" > build/example.folded
    echo "bootstrap: folded $example into build/example.folded ($(wc -l < build/example.folded) stacks)"
    build/src/tools/flamesvg --title "flamefold example" build/example.folded > example.svg
    echo "bootstrap: rendered example.svg: open it in a browser"
    ;;
  test)
    if [ -f test/browser/package.json ] && [ ! -d test/browser/node_modules ]; then
      (cd test/browser && npm ci --no-audit --no-fund >/dev/null) ||
        echo "bootstrap: npm ci failed: the browser test will be skipped" >&2
    fi
    meson test -C build --print-errorlogs --num-processes 2
    ;;
esac
