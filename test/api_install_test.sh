#!/bin/bash
# The installed C++ API: `meson install` into a scratch DESTDIR, then
# examples/fold_server.cc is built with `pkg-config --cflags --libs
# flamefold` against that copy alone (no path into the source or build
# tree) and run on testdata inputs: read on standard input, and sent over a
# UNIX socket, its folded stacks must be the golden files', and its SVG
# what `flamefold | flamesvg` draw.
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
. "$(dirname "$0")/missing.sh"
command -v meson > /dev/null || missing "meson (apt-get install meson)"
command -v pkg-config > /dev/null || missing "pkg-config (apt-get install pkg-config)"
command -v c++ > /dev/null || missing "c++ (apt-get install g++)"
command -v python3 > /dev/null || missing "python3 (apt-get install python3)"
examples=$(cd "$(dirname "$0")/../examples" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dest=$work/dest
meson install -C "$BUILD_DIR" --no-rebuild --destdir "$dest" --quiet \
  > "$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
options() {  # options NAME: a build option's value
  meson introspect "$BUILD_DIR" --buildoptions | python3 -c \
    "import json,sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name']=='$1'))"
}
prefix=$(options prefix)
libdir=$(options libdir)
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# The installed files, and only them: the sysroot prefixes every -I and -L.
export PKG_CONFIG_PATH=$dest$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs flamefold) || { echo "FAIL: pkg-config flamefold"; exit 1; }
case $flags in *"$dest"*) ok ;; *) bad "pkg-config flags do not point into DESTDIR: $flags" ;; esac
# A library built under the sanitizers (the CI's ASan pass) needs their
# runtime first in the program that loads it: such a program is built with
# them too, as its users would build theirs.
sanitize=
if readelf -d "$dest$libdir"/libflamefold.so | grep -q 'libasan'; then
  sanitize=-fsanitize=address,undefined
fi
# shellcheck disable=SC2086  # the flags are words
if c++ -std=c++20 -O1 -Wall -Werror $sanitize "$examples/fold_server.cc" \
    -o "$work/fold_server" $flags 2> "$work/cc.log"; then ok
else cat "$work/cc.log"; echo "FAIL: building the example"; exit 1; fi
export LD_LIBRARY_PATH=$dest$libdir
server=$work/fold_server

check() {  # check WHAT EXPECTED ACTUAL
  if cmp -s "$2" "$3"; then ok; else bad "$1"; diff "$2" "$3" | head -5; fi
}
script=$TESTDATA/perf-script/cxx-fp.txt.gz
want=$TESTDATA/expected/flamefold/cxx-fp-collapsed-kernel.txt
"$server" --stdin --kernel < "$script" > "$work/out"
check "stdin: perf script text (gzip) folded" "$want" "$work/out"
data=$TESTDATA/perf-data/fp-user/perf.data
HOME=/nonexistent "$server" --stdin < "$data" > "$work/out"
HOME=/nonexistent "$BUILD_DIR/src/tools/flamefold" < "$data" > "$work/want" 2> /dev/null
[ -s "$work/want" ] || bad "flamefold folded nothing from $data"
check "stdin: perf.data folded as flamefold folds it" "$work/want" "$work/out"
printf 'not a profile\n' | "$server" --stdin > "$work/out"
grep -q '^error: profile: no samples found' "$work/out" && ok ||
  bad "stdin: an error answer: $(cat "$work/out")"

# Over a UNIX socket, one profile per connection: folded, then an SVG.
send() {  # send SOCKET FILE: the server's answer to FILE, on stdout
  python3 - "$1" "$2" << 'PY'
import socket, sys, time
for _ in range(200):
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); break
    except OSError:
        time.sleep(0.05)
s.sendall(open(sys.argv[2], "rb").read()); s.shutdown(socket.SHUT_WR)
while (b := s.recv(65536)): sys.stdout.buffer.write(b)
PY
}
"$server" --unix "$work/sock" --once --kernel 2> /dev/null &
send "$work/sock" "$script" > "$work/out"
wait $! || bad "server exit status"
check "socket: perf script text folded" "$want" "$work/out"
"$server" --unix "$work/sock" --once --svg --title 'C++ FP' 2> /dev/null &
send "$work/sock" "$script" > "$work/out"
wait $! || bad "server exit status"
"$BUILD_DIR/src/tools/flamefold" "$script" 2> /dev/null |
  "$BUILD_DIR/src/tools/flamesvg" --title 'C++ FP' > "$work/want.svg" 2> /dev/null
check "socket: SVG as flamefold | flamesvg draw it" "$work/want.svg" "$work/out"

echo "api-install: $pass passed, $fail failed"
[ $fail -eq 0 ]
