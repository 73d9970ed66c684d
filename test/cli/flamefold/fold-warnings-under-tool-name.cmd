# What folding perf.data lost is said by each tool under its own name, not as
# "flamefold: warning:" by every tool, and -q silences it in flamereport and
# flamebatch too.
cp $TESTDATA/bad/perf-data-cut-6926.data cut.data
sum=$(md5sum < cut.data)
mkdir nosyms
$TOOLS/flamereport --symfs nosyms --kallsyms /dev/null --format csv --top 1 cut.data; echo "flamereport $?"
$TOOLS/flamereport -q --symfs nosyms --kallsyms /dev/null --format csv --top 1 cut.data; echo "flamereport -q $?"
mkdir arch && cp cut.data arch/
$TOOLS/flamebatch --jobs 1 --folded -o out arch 2>&1 | grep 'cut short'
echo "flamebatch ${PIPESTATUS[0]}"
$TOOLS/flamebatch -q --force --jobs 1 --folded -o out arch; echo "flamebatch -q $?"
[ "$(md5sum < cut.data)" = "$sum" ] && [ "$(md5sum < arch/cut.data)" = "$sum" ] && echo "inputs unchanged"
