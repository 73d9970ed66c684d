# A zstd stream cut short: the error names the file and the byte offset.
printf 'perf 1 1.0: 1 cycles:\n\tffff main (/bin/x)\n\n%.0s' $(seq 200) | zstd -q -c | head -c 40 > cut.zst
$TOOL cut.zst
