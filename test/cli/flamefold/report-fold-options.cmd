# flamereport takes flamefold's fold options (--modern, --pid, ...) and says
# what folding lost under its own name: a C++ profile whose
# "(anonymous namespace)::Fib" frames are dropped must not show Work as the
# top hotspot without a word. -q silences the warnings.
D=$TESTDATA/perf-data/dwarf-cxx
r() { $TOOLS/flamereport --symfs $D/root --kallsyms $D/kallsyms --format csv --top 2 "$@" $D/perf.data; echo "exit $?"; }
r
r --modern
r -q
$TOOLS/flamereport -q --format csv --top 1 --pid --event-filter cpu-clock:ppp --depth 0 $TESTDATA/perf-script/cxx-fp.txt | tail -1
$TOOLS/flamereport -q --pid --top 1 --depth 0 $TESTDATA/perf-script/cxx-fp.txt | grep -A1 '^Processes' 
