# An unknown --colors palette keeps flamegraph.pl's output (every frame black)
# but warns, naming the palettes there are.
printf 'a;b 3\na;c 1\n' > in.folded
$TOOLS/flamesvg --colors rust in.folded > out.svg; echo "exit $?"
grep -c 'fill="rgb(0,0,0)"' out.svg
$TOOLS/flamesvg --colors rust --countname ms in.folded > /dev/null; echo "exit $?"
$TOOLS/flamesvg -q --colors rust --countname ms in.folded > /dev/null; echo "-q exit $?"
$TOOLS/flamesvg --colors java --countname ms in.folded > /dev/null; echo "java exit $?"
