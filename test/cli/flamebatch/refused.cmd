# Where outputs would still collide, the inputs are refused with an error
# naming them, the rest is converted, and the exit status is 1: two files of
# the same name converted into one OUTDIR; an input whose output would
# replace another input (x beside x.folded); an output that would replace a
# file flamebatch did not write. A file named twice is converted once.
mkdir -p a b arch out
printf 'main;a 30\n' > a/p.folded
printf 'main;b 30\n' > b/p.folded
$TOOL -q -o out a/p.folded b/p.folded
echo "exit $?"
printf 'main;x 30\n' > arch/x
printf 'main;y 30\n' > arch/x.folded
printf 'main;z 30\n' > arch/z.folded
md5sum arch/* > inputs.md5
echo '<svg>mine</svg>' > out/z.folded.svg
$TOOL -q -o out arch
echo "exit $?"
(cd arch && $TOOL -q .)
echo "exit $?"
md5sum -c inputs.md5
cat out/z.folded.svg
$TOOL -q --folded -o twice arch arch/z.folded
echo "exit $?"
find out arch twice -type f | sort
