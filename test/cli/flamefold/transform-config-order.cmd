# Transforms in the configuration file act before the command line's, in
# the file's order; a transform option given on the command line replaces
# the file's values of that option (as any option's), the others stay.
printf 'p;a;x;a;b 1\np;lock;spin 2\n' > in.folded
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamefold]\nhide = ^x$\ncollapse-recursion = yes\nprune-from = ^a$\n' > "$XDG_CONFIG_HOME/flamefold/config"
$TOOL in.folded
echo ---
# The file's hide and prune-from, then the command line's prune-from
# replaces the file's: hide, collapse-recursion, prune-from ^lock$.
$TOOL --prune-from '^lock$' in.folded
echo ---
# collapse-recursion = no in the file is no step.
printf '[flamefold]\ncollapse-recursion = no\n' > "$XDG_CONFIG_HOME/flamefold/config"
$TOOL in.folded
