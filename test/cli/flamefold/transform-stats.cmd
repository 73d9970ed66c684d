# --stats counts the stacks the transforms dropped, and of those the ones
# left without frames; --include runs first, on the lines as folded.
printf 'p;a 1\np;b 2\nq;a 4\nq;h 8\nr;x 16\n' > in.folded
$TOOL --stats --include '^[pq];' --focus '^a$' --hide '.' in.folded
echo ---
$TOOL --stats --exclude '^q' --ignore '^b$' --hide '^p$' in.folded
