# flamesvg options apply to every SVG; without --title the input's path is the title.
mkdir arch; printf 'a;b 3\na;c 1\n' > arch/p.folded
$TOOL -q --svg --colors=java --width 800 -o out arch
grep -o 'width="800"' out/p.folded.svg | head -1
grep -o ">p.folded<" out/p.folded.svg | head -1
$TOOL -q --svg --title "All hosts" -o out2 arch/p.folded
grep -o '>All hosts<' out2/p.folded.svg | head -1
