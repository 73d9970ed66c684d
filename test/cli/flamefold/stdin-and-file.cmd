# stdin, "-" and a path give the same bytes.
printf 'java 25607 4794564.109216: 1 cycles:\n\tffff a (b)\n\n' > in.txt
$TOOL in.txt > a; $TOOL < in.txt > b; $TOOL - < in.txt > c
cmp a b && cmp a c && cat a
