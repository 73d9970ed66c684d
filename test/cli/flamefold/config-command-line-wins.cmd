# The command line wins over the configuration file: a value given there
# replaces the file's, and a repeatable option given there replaces all of
# the file's values (--exclude '^java' drops the file's '^sh').
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\nsh 3/3 1.0: 1 cycles:\n\t1 b (/bin/sh)\n\n' > in.txt
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamefold]\npid = 1\nexclude = ^sh\nevent-filter = nothing\n' > "$XDG_CONFIG_HOME/flamefold/config"
$TOOL --exclude '^java' --event-filter cycles in.txt
echo ---
$TOOL --tid --e=cycles in.txt
