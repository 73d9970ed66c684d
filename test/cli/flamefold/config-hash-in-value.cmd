# In the configuration file a line whose first non-blank character is '#'
# is a comment; a '#' elsewhere belongs to the value, so flamesvg's
# --bgcolors takes a colour as "#rrggbb" from the file as it does from the
# command line. A line with a control character is refused, quoted
# printably.
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '# my colours\n[flamesvg]\n  # flat\nbgcolors = #e0e0ff\r\n' > "$XDG_CONFIG_HOME/flamefold/config"
printf 'a;b 3\na;c 1\n' > in.folded
$TOOLS/flamesvg in.folded > file.svg; echo "exit $?"
$TOOLS/flamesvg --no-config --bgcolors '#e0e0ff' in.folded > line.svg
cmp file.svg line.svg && grep -c 'e0e0ff' file.svg
printf '[flamesvg]\ntitle = a\001b\n' > bad.conf
$TOOLS/flamesvg --config bad.conf in.folded > /dev/null; echo "exit $?"
