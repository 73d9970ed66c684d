# The filters and transforms apply before the export: the stacks that
# --hide and --collapse-recursion merge are one node, one sample.
printf 'p;a;a;b 1\np;a;x;b 2\np;a;b 3\np;c 4\nq;d 5\n' > in.folded
$TOOL --exclude '^q' --hide '^x$' --collapse-recursion --format=d3 in.folded
$TOOL --exclude '^q' --hide '^x$' --collapse-recursion --format=speedscope -o out.json in.folded
cat out.json
