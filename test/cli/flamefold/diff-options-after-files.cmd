# flamediff takes options after its files, as the other tools do, and
# flamefold's fold options for perf script and perf.data inputs; letters still
# bundle as in difffolded.pl (-ns), -- still ends the options.
printf 'a;f 0x1f 2\na;g 1\n' > before
printf 'a;f 0x2e 4\n' > after
$TOOLS/flamediff before after -ns; echo "exit $?"
$TOOLS/flamediff -s before after --report --top 1; echo "exit $?"
cp before ./-n
$TOOLS/flamediff after -- -n; echo "exit $?"
$TOOLS/flamediff before after -nx; echo "exit $?"
$TOOLS/flamediff before after extra; echo "exit $?"
cp $TESTDATA/perf-script/cxx-fp.txt fp.txt
$TOOLS/flamediff fp.txt fp.txt | grep -c 'anonymous namespace'
$TOOLS/flamediff fp.txt fp.txt --modern | grep -c 'anonymous namespace'
$TOOLS/flamediff fp.txt fp.txt -q --pid | cut -d';' -f1 | sort -u
