# A closed pipe ends the tool quietly with status 0.
set -o pipefail
for i in $(seq 3000); do printf 'perf 1 1.0: 1 cycles:\n\tffff f%d (m)\n\n' $i; done > many.txt
$TOOL many.txt | head -n 1
