# A side that holds no sample (an empty file, perf script stack lines with
# no header) is warned of, as flamefold warns of such an input; the other
# side is still printed, exit 0 as difffolded.pl; -q silences the warning.
# A folded side whose counts are 0 is not warned of (it has lines).
: > empty.txt
printf '\t    401000 leaf+0x10 (/usr/bin/app)\n\n' > headless.txt
printf 'a;b 3\n' > after.folded
printf 'a;b 0\n' > zero.folded
$TOOL empty.txt after.folded; echo "exit $?"
$TOOL headless.txt after.folded; echo "exit $?"
$TOOL -q empty.txt after.folded; echo "exit $?"
$TOOL zero.folded after.folded; echo "exit $?"
