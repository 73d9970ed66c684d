printf 'pp 1 1.0: 1 cycles:\n\tffff a (m)\n\tffff main (m)\n\npp 1 1.0: 2 cycles:\n\tffff b (m)\n\tffff main (m)\n\npp 1 1.0: 4 cycles:\n\tffff c (m)\n\tffff other (m)\n\n' > in.txt
$TOOL --include ';main;' in.txt; echo ---; $TOOL --exclude '\ba$' --stats in.txt; echo ---; $TOOL --include main --include other --exclude 'c$' in.txt
