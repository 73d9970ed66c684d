# flamereport reads [flamereport] of the configuration file; the command
# line wins.
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamereport]\nformat = csv\ntop = 1\n[flamefold]\nformat = json\n' > "$XDG_CONFIG_HOME/flamefold/config"
printf 'app;main;f 3\napp;main;g 1\n' > in.folded
$TOOL in.folded
echo ---
$TOOL -f text --top=0 in.folded | head -3
echo ---
printf '[flamereport]\ntop = -1\n' > bad.conf
$TOOL --config bad.conf in.folded; echo "exit $?"
