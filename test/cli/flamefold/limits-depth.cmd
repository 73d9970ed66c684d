# --max-stack-depth: a deeper stack keeps its frames nearest the root and its
# count; one warning per input names it (perf script text and folded input),
# and --stats counts the cut samples.
printf 'prog 1 [000] 1.0: 1 cycles:\n\t5 e (m)\n\t4 d (m)\n\t3 c (m)\n\t2 b (m)\n\t1 a (m)\n\nprog 1 [000] 1.0: 1 cycles:\n\t1 a (m)\n\n' > deep.txt
printf 'p;a;b;c;d;e;f 5\np;a 1\n' > deep.folded
$TOOL --max-stack-depth 3 --stats deep.txt deep.folded
echo ---
# The default (65536) changes nothing here.
$TOOL deep.txt deep.folded
