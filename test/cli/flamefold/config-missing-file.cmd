# A file named by --config must be there (the default one need not).
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\n' > in.txt
$TOOL --config nope.conf in.txt; echo "exit $?"
$TOOL --config . in.txt; echo "exit $?"
$TOOL --config; echo "exit $?"
