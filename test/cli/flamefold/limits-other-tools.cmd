# Every tool that reads stacks applies the same limits and warns once per
# input: flamesvg, flamediff (both sides), flamereport, flamebatch (its
# flamesvg options fold too).
printf 'p;a;b;c;d 5\np;a 1\np;averylongname 2\n' > in.folded
$TOOLS/flamesvg --max-stack-depth 2 --max-frame-length 4 in.folded > out.svg; echo "flamesvg $?"
grep -c '<title>p;a (' out.svg
$TOOLS/flamediff --max-stack-depth 3 in.folded in.folded; echo "flamediff $?"
$TOOLS/flamereport --max-stack-depth 2 --format csv in.folded; echo "flamereport $?"
mkdir arch && cp in.folded arch/
$TOOLS/flamebatch --jobs 1 --max-frame-length 4 -o out arch 2>&1 | grep -v '^flamebatch: \[\|^flamebatch: [0-9]* converted'; cat out/in.folded.folded
