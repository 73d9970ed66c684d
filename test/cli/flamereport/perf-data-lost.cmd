# A recording whose kernel buffer overflowed (perf record -m 2 at 20 kHz with
# 4 KB DWARF stacks): the lost samples and records are said, and, kernel
# symbols being unavailable here (--kallsyms /dev/null), the frames without a
# symbol are counted with the DSO they belong to. JSON carries the same facts.
P=$TESTDATA/perf-data
cp "$TESTDATA/flamereport/lost-dwarf.data" lost.data
HOME=/nonexistent $TOOL -q --symfs "$P/root" --kallsyms /dev/null --top 2 \
  --depth 1 lost.data
HOME=/nonexistent $TOOL -q --symfs "$P/root" --kallsyms /dev/null --top 1 \
  --depth 1 -f json lost.data
