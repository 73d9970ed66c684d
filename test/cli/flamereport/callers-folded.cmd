# A leaf hotspot has a caller tree, never an empty one. Its callers are merged
# over every stack from its outermost call (a recursive function is not its
# own caller), up to --depth levels; a function called by no other one has the
# process frame as its caller, marked "(process)". Text, CSV and JSON.
cat > in.folded <<'IN'
app;main;compute;__sin_fma 60
app;main;other;compute;__sin_fma 15
app;main;__sin_fma 10
app;__sin_fma 5
app;main;walk;walk;__sin_fma 7
app;main;compute 3
IN
$TOOL --top 2 --width 2 in.folded
echo ---
$TOOL --top 2 --width 2 -f csv in.folded
echo ---
$TOOL --top 1 --depth 2 --width 2 -f json in.folded
echo ---
$TOOL --top 1 --depth 0 in.folded
