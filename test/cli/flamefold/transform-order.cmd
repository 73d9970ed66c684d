# The transforms act in the order given: hiding x before merging the
# recursion leaves a;a for it to merge, after it does not. Stacks made equal
# merge, and the output stays sorted.
printf 'p;a;x;a;b 1\np;a;b 2\np;c;a 4\n' > in.folded
$TOOL --hide '^x$' --collapse-recursion in.folded
echo ---
$TOOL --collapse-recursion --hide '^x$' in.folded
echo ---
# --focus looks for the process frame, which --show-from drops.
$TOOL --focus '^p$' --show-from '^a$' in.folded
echo ---
$TOOL --show-from '^a$' --focus '^p$' in.folded
