# Like Perl's <>, a sample may continue into the next file.
printf 'p1 1/1 1.0: 1 cycles:\n\tffff leaf (m)\n' > a.txt
printf '\tffff root (m)\n\np2 2/2 1.0: 3 cycles:\n\tffff x (m)\n\n' > b.txt
$TOOL --pid a.txt b.txt
