# A configuration file gives default options: flamefold reads its own
# section, [flamefold], and leaves the other tools' sections to them.
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\nsh 3/3 1.0: 1 cycles:\n\t1 b (/bin/sh)\n\n' > in.txt
$TOOL in.txt
echo ---
mkdir -p "$XDG_CONFIG_HOME/flamefold"
cat > "$XDG_CONFIG_HOME/flamefold/config" <<'CONFIG'
# defaults of the flamefold tools
[flamesvg]
colors = java
width = 800

[flamefold]
kernel = yes
  # process frames as comm-PID
pid = true
exclude = ^sh

[flamereport]
top = 3
CONFIG
$TOOL in.txt; echo "exit $?"
