# flamebatch reads [flamebatch] only: its own options, the fold options and
# flamesvg's, each by its full name ([flamesvg] and [flamefold] are the
# other tools'); the command line wins.
mkdir arch
printf 'java 1/2 1.0: 1 cycles:\n\tffff a ([kernel.kallsyms])\n\njava 1/2 2.0: 1 cycles:\n\tffff c ([kernel.kallsyms])\n\n' > arch/p.txt
mkdir -p "$XDG_CONFIG_HOME/flamefold"
cat > "$XDG_CONFIG_HOME/flamefold/config" <<'CONFIG'
[flamesvg]
width = 300
[flamefold]
pid = 1
[flamebatch]
quiet = yes
svg = true
outdir = out
width = 800
title = From the file
kernel = yes
exclude = ;c_
CONFIG
$TOOL arch; echo "exit $?"
ls out
grep -o 'width="800"' out/p.txt.svg | head -1
grep -o '>From the file<' out/p.txt.svg
grep -c '<title>a ' out/p.txt.svg
grep -c '<title>c ' out/p.txt.svg
$TOOL --title Mine -o out2 --folded arch; echo "exit $?"
ls out2
cat out2/p.txt.folded
grep -o '>Mine<' out2/p.txt.svg
printf '[flamebatch]\ncolours = java\n' > bad.conf
$TOOL --config bad.conf arch; echo "exit $?"
printf '[flamebatch]\nwidth = wide\n' > bad.conf
$TOOL --config bad.conf arch; echo "exit $?"
printf '[flamebatch]\noutput = x.svg\n' > bad.conf
$TOOL --config bad.conf arch; echo "exit $?"
