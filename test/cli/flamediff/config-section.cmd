# flamediff reads [flamediff] of the configuration file; difffolded.pl's
# letters (-n, -s) have no long name and are not set there.
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamediff]\nreport = yes\ntop = 1\n' > "$XDG_CONFIG_HOME/flamefold/config"
printf 'a;f 2\na;g 1\n' > before
printf 'a;f 4\n' > after
$TOOL before after; echo "exit $?"
$TOOL --no-config before after; echo "exit $?"
printf '[flamediff]\nn = true\n' > bad.conf
$TOOL --config bad.conf before after; echo "exit $?"
