# flamesvg reads [flamesvg]; its command line wins; --help is not changed
# by the file.
mkdir -p "$XDG_CONFIG_HOME/flamefold"
printf '[flamefold]\nmodern = true\n[flamesvg]\ncolors = java\nwidth = 800\ntitle = From the file\n' > "$XDG_CONFIG_HOME/flamefold/config"
printf 'a;b 3\na;c 1\n' > in.folded
$TOOLS/flamesvg in.folded > one.svg
grep -o 'width="800"' one.svg | head -1
grep -o '>From the file<' one.svg
$TOOLS/flamesvg --width 600 --title=Mine in.folded > two.svg
grep -o 'width="600"' two.svg | head -1
grep -o '>Mine<' two.svg
printf '[flamesvg]\nwidth = 10\n' > "$XDG_CONFIG_HOME/flamefold/config"
$TOOLS/flamesvg --help | head -1
$TOOLS/flamesvg in.folded > /dev/null; echo "exit $?"
