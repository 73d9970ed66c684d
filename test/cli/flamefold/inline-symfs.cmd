# --inline on perf script text, the modules found under --symfs: the
# functions addr2line -i names, outermost first (libtiny.so's rotl() is
# inlined into tiny_hash()); --context adds file:line.
root=$TESTDATA/perf-data/dwarf-shlib/root
printf 'shlib 10 1.0: 1 cpu-clock: \n\t102a tiny_hash+0x2a (/tmp/ffdw/libtiny.so)\n\t1040 step+0x0 (/tmp/ffdw/shlib)\n\n' > in.txt
$TOOL --inline --symfs "$root" in.txt
$TOOL --inline --context --symfs "$root" in.txt
