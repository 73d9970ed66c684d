# --no-config reads no configuration file, not even a broken one; with
# --config it is a usage error.
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\n' > in.txt
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamefold]\npid = 1\nnot an option line\n' > "$XDG_CONFIG_HOME/flamefold/config"
$TOOL --no-config in.txt; echo "exit $?"
$TOOL --no-config --config other.conf in.txt; echo "exit $?"
