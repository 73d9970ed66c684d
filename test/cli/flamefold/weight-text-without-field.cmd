# --weight on perf script text whose samples have no such field (cpu-clock
# samples): each counts 0, so no stack is left; the warnings say why.
$TOOL --weight bytes "$TESTDATA/perf-script/cxx-fp.txt"
echo "exit $?"
