# ".", "..", relative and absolute folders and single files all work; a
# single file's outputs go beside it (or into OUTDIR) under its whole name,
# and never replace it.
mkdir -p arch/sub
printf 'main;a 30\nmain;b 12\n' > arch/a.folded
printf 'main;c 25\nmain;d 40\n' > arch/sub/b.folded
(cd arch && md5sum a.folded sub/b.folded > ../inputs.md5)
(cd arch && $TOOL -q --svg .); echo "'.': exit $?"
(cd arch/sub && $TOOL -q --svg -o ../../out-dotdot ..); echo "'..': exit $?"
$TOOL -q --svg -o out-rel arch; echo "relative: exit $?"
$TOOL -q --svg -o "$PWD/out-abs" "$PWD/arch"; echo "absolute: exit $?"
(cd arch/sub && $TOOL -q --folded b.folded); echo "single file: exit $?"
$TOOL -q --folded -o out-files arch/a.folded "$PWD/arch/sub/b.folded"; echo "two files: exit $?"
(cd arch && md5sum -c ../inputs.md5)
find arch out-* -type f | sort
cmp arch/sub/b.folded arch/sub/b.folded.folded && echo "b.folded.folded: b.folded folded again"
