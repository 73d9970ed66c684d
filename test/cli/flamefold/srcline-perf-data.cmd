# --srcline on perf.data: each frame gets the source line that perf script
# -F+srcline prints after it (addr2line's answer, from the binaries'
# DWARF; "[kernel.kallsyms][ADDR]" for kernel frames, which the Perl script
# empties), folded as `perf script -F+srcline | stackcollapse-perf.pl
# --srcline` folds them.
export HOME=/nonexistent
d=$TESTDATA/perf-data/dwarf-shlib
$TOOL --srcline --symfs "$d/root" --kallsyms "$d/kallsyms" "$d/perf.data"
