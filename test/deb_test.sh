#!/bin/bash
# The Debian package: `dpkg-buildpackage -us -uc -b` on a copy of the source
# tree (outside it, in a scratch directory) builds a .deb whose file list is
# test/deb_files.txt, whose version is the project's, whose tools run, and
# which lintian accepts with no error. Skips (77) where the packaging tools
# are missing; `scripts/bootstrap.sh test` installs them. The C++ API's
# packages, libflamefold0 and libflamefold-dev, have file lists of their
# own.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
for cmd in dpkg-buildpackage dpkg-checkbuilddeps dh dpkg-deb lintian make; do
  command -v "$cmd" > /dev/null ||
    { echo "SKIP: $cmd not found (apt-get install build-essential dpkg-dev debhelper lintian)"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
version=$(sed -n "s/^  version : '\(.*\)',$/\1/p" "$src/meson.build")
[ -n "$version" ] || { echo "FAIL: no version in meson.build"; exit 1; }
tree=$work/flamefold-$version
mkdir "$tree"

# The files of the source tree: those git knows of (tracked or not ignored,
# so no build tree or node_modules), else everything but build trees.
copy_tree() {
  if git -C "$src" rev-parse --show-toplevel > /dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      tar --null -T - -cf -) | tar -xf - -C "$tree"
  else
    tar -C "$src" --exclude='./build*' --exclude=node_modules -cf - . |
      tar -xf - -C "$tree"
  fi
}
copy_tree || { echo "FAIL: cannot copy the source tree"; exit 1; }

pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

(cd "$tree" && dpkg-checkbuilddeps) || { echo "FAIL: unmet build dependencies"; exit 1; }
# nocheck: the suites run here already, not again inside the package build.
if ! (cd "$tree" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
    dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log"; echo "FAIL: dpkg-buildpackage"; exit 1
fi
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$work/flamefold_${version}_$arch.deb
changes=$work/flamefold_${version}_$arch.changes
if [ ! -f "$deb" ] || [ ! -f "$changes" ]; then
  ls "$work"; echo "FAIL: no $(basename "$deb") and .changes built"; exit 1
fi

# File lists: mode, owner and path of every entry (sizes and dates vary),
# of the tools' package (test/deb_files.txt) and of the C++ API's two
# (test/deb_files_PACKAGE.txt).
file_list() {  # file_list DEB: its entries, sorted by path
  dpkg-deb -c "$1" |
    awk '{ path = $6; for (i = 7; i <= NF; i++) path = path " " $i; print $1, $2, path }' |
    LC_ALL=C sort -k 3
}
file_list "$deb" > "$work/files.txt"
if diff -u "$here/deb_files.txt" "$work/files.txt"; then ok; else bad "file list (test/deb_files.txt)"; fi
for pkg in libflamefold0 libflamefold-dev; do
  lib_deb=$work/${pkg}_${version}_$arch.deb
  if [ ! -f "$lib_deb" ]; then bad "no $(basename "$lib_deb") built"; continue; fi
  file_list "$lib_deb" > "$work/files_$pkg.txt"
  if diff -u "$here/deb_files_$pkg.txt" "$work/files_$pkg.txt"; then ok
  else bad "file list (test/deb_files_$pkg.txt)"; fi
done

if [ "$(dpkg-deb -f "$deb" Version)" = "$version" ]; then ok
else bad "package version $(dpkg-deb -f "$deb" Version), meson.build says $version"; fi
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libarchive13 libdw1 libelf1 libre2- libzstd1 zlib1g; do
  case "$depends" in *"$lib"*) ok ;; *) bad "Depends lacks $lib: $depends" ;; esac
done

# The packaged tools run and report the project's version.
dpkg-deb -x "$deb" "$work/root"
for t in flamefold flamesvg flamediff flamereport flamescope flamebatch flamerecord; do
  if [ "$("$work/root/usr/bin/$t" --version 2>&1)" = "$t $version" ]; then ok
  else bad "$t --version: $("$work/root/usr/bin/$t" --version 2>&1 | head -n 1)"; fi
done

# lintian: errors fail; warnings and the rest are printed.
lintian --fail-on error --display-info "$changes" > "$work/lintian.log" 2>&1
status=$?
cat "$work/lintian.log"
if [ $status -eq 0 ]; then ok; else bad "lintian found errors (exit $status)"; fi

echo "deb: $pass passed, $fail failed"
[ $fail -eq 0 ]
