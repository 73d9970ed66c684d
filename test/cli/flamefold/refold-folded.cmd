# Folded input is recognised and folded again: counts of equal stacks add up.
printf 'a;b 1\nc 2\n' > one.folded; printf 'a;b 3\n' | gzip -c > two.folded.gz
$TOOL one.folded two.folded.gz
