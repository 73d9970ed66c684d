# flamereport keeps or drops stacks as flamefold --include and --exclude do,
# and its percentages are of the stacks kept; a bad pattern is a usage error.
cat > in.folded <<'IN'
app;main;compute;__sin_fma 60
app;main;walk;walk;__sin_fma 7
app;main;compute 3
db;main;query 30
IN
$TOOL --top 2 --depth 0 --exclude '^db;' in.folded
echo ---
$TOOL --top 2 --depth 0 --include walk --include query -f csv in.folded
echo ---
$TOOL --exclude 'a(' in.folded
echo "exit $?"
