# stackcollapse-perf.pl's --jit wins the prefix "--j", as in the Perl script
# (Getopt::Long knows only its names); flamefold's -j, a letter after a
# single dash, is --jobs. Every tool that folds reads them so.
printf 'java 1/2 1.0: 1 cycles:\n\t7f00 Interpreter (/tmp/perf-1.map)\n\n' > in.txt
$TOOL --j in.txt
$TOOL +J in.txt
$TOOL -j 2 in.txt
$TOOL -j2 in.txt
$TOOL --jo 2 in.txt
$TOOLS/flamereport --j -f csv in.txt | cut -d, -f2 | sed -n 2p
