# A binary rebuilt after the recording (its build id differs from the one
# perf recorded) is never used for symbols or unwinding, as perf does not
# use it: its frames stay [unknown] (what perf script prints with the same
# files), and a warning names both build ids. Here the program's build-id
# note is altered in a copy of the recorded root.
export HOME=/nonexistent
d=$TESTDATA/perf-data/dyn-c-fp
mkdir -p root/tmp/ffdyn root/usr/lib
ln -s "$d/root/usr/lib/x86_64-linux-gnu" root/usr/lib/x86_64-linux-gnu
cp "$d/root/tmp/ffdyn/dyn-fp" root/tmp/ffdyn/
id=$(readelf -n root/tmp/ffdyn/dyn-fp | awk '/Build ID/ { print $3 }')
python3 - root/tmp/ffdyn/dyn-fp "$id" <<'PY'
import sys
p, build_id = sys.argv[1], bytes.fromhex(sys.argv[2])
b = bytearray(open(p, 'rb').read())
b[b.index(build_id)] ^= 0xff
open(p, 'wb').write(b)
PY
ln -s "$d/perf.data" rec.data
$TOOL --symfs root --kallsyms "$d/kallsyms" rec.data | sort -t' ' -k2 -n | tail -3
