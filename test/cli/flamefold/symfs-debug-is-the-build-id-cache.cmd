# Under --symfs DIR, the build-id cache is DIR/.debug unless --buildid-dir
# says otherwise, as perf 6.1 sets it: here the recorded program is only
# there (as .debug/.build-id/xx/yyyy/elf), and its frames are named from it
# (what perf script prints with the same root). With --buildid-dir pointing
# elsewhere, the program is not found and its frames stay [unknown].
export HOME=/nonexistent
d=$TESTDATA/perf-data/dyn-c-fp
id=$(readelf -n "$d/root/tmp/ffdyn/dyn-fp" | awk '/Build ID/ { print $3 }')
mkdir -p "root/.debug/.build-id/${id:0:2}/${id:2}" empty
cp "$d/root/tmp/ffdyn/dyn-fp" "root/.debug/.build-id/${id:0:2}/${id:2}/elf"
ln -s "$d/perf.data" rec.data
$TOOL -q --symfs root --kallsyms "$d/kallsyms" rec.data | grep -c sort_round
echo "with --buildid-dir empty: $($TOOL -q --symfs root --buildid-dir empty \
  --kallsyms "$d/kallsyms" rec.data | grep -c sort_round)"
