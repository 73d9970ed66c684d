# Outputs newer than their input are skipped unless --force; a touched input
# is converted again.
mkdir arch; printf 'a;b 3\n' > arch/one.folded; printf 'x;y 1\n' > arch/two.folded
$TOOL --jobs 1 -o out arch
$TOOL --jobs 1 -o out arch
sleep 0.01; touch arch/two.folded
$TOOL --jobs 1 -o out arch
$TOOL --jobs 1 --force --svg -o out arch
