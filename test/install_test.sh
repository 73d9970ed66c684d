#!/bin/bash
# `meson install` puts every tool, man page and completion in place (into a
# scratch DESTDIR), and each installed tool answers --help and --version.
set -u
: "${BUILD_DIR:?}"
. "$(dirname "$0")/missing.sh"
command -v meson >/dev/null || missing "meson (apt-get install meson)"
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$BUILD_DIR" --no-rebuild --destdir "$dest" --quiet > "$dest.log" 2>&1 ||
  { cat "$dest.log"; rm -f "$dest.log"; exit 1; }
rm -f "$dest.log"
prefix=$(meson introspect "$BUILD_DIR" --buildoptions | python3 -c \
  "import json,sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name']=='prefix'))")
compat=$(meson introspect "$BUILD_DIR" --buildoptions | python3 -c \
  "import json,sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name']=='compat_names'))")
root=$dest$prefix
pass=0; fail=0
expect() { if [ -e "$1" ]; then pass=$((pass + 1)); else echo "FAIL: $1 not installed"; fail=$((fail + 1)); fi; }
for t in flamefold flamesvg flamediff flamereport flamescope flamebatch flamerecord; do
  expect "$root/bin/$t"
  expect "$root/share/man/man1/$t.1"
  expect "$root/share/bash-completion/completions/$t"
  if "$root/bin/$t" --version | grep -q "^$t [0-9]" && "$root/bin/$t" --help > /dev/null; then
    pass=$((pass + 1)); else echo "FAIL: $t --help/--version"; fail=$((fail + 1)); fi
done
if [ "$compat" = True ]; then
  for t in stackcollapse-perf flamegraph difffolded; do expect "$root/bin/$t"; done
fi
bash -n "$root/share/bash-completion/completions/flamefold" || { echo "FAIL: completion syntax"; fail=$((fail + 1)); }
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
