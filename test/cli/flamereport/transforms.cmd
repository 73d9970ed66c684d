# flamereport takes the transforms: the report is of the stacks they make.
printf 'p;main;lib;leaf 3\np;main;lib;lib;other 1\nq;idle 5\n' > in.folded
$TOOL --top 3 --depth 0 --ignore '^idle$' --hide '^lib$' in.folded
$TOOL --prune-from '(' in.folded
echo "exit $?"
