{ printf 'perf 1 1.0: 1 cycles:\n\tffff main (/bin/x)\n\n'; python3 -c "print('\tffff ' + 'y' * 20_000_000 + ' (m)')"; printf 'perf 1 1.0: 2 cycles:\n\tffff main (/bin/x)\n\n'; } > mixed.txt
$TOOL mixed.txt
