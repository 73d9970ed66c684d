# --config FILE reads FILE instead of $XDG_CONFIG_HOME/flamefold/config.
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\n' > in.txt
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamefold]\npid = 1\n' > "$XDG_CONFIG_HOME/flamefold/config"
printf '[flamefold]\ntid = 1\n' > my.conf
$TOOL in.txt
$TOOL --config my.conf in.txt
$TOOL in.txt --conf=my.conf
