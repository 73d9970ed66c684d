printf 'perf 1 1.0: 1 cycles:\n\tffff ma\0in (/bin/x)\n\n' > nul.txt
$TOOL nul.txt
