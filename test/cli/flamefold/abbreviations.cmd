# Getopt::Long prefixes and single dashes, as scripts call the Perl tool.
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\n' > in.txt
$TOOL --k -pi in.txt; $TOOL --ti --e=cycles in.txt; $TOOL --ALL in.txt
