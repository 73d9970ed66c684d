# A gzip stream cut short is an error naming the file and the byte offset
# where the compressed data ends, exit 1.
printf 'perf 1 1.0: 1 cycles:\n\tffff main (/bin/x)\n\n%.0s' $(seq 200) | gzip -c | head -c 60 > cut.gz
$TOOL cut.gz
