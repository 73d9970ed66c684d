# A folder with nothing to convert (empty, or only flamebatch's own outputs
# and hidden files) says so, and is no failure.
mkdir empty arch
$TOOL -q empty
echo "exit $?"
$TOOL empty
echo "exit $?"
printf 'main;a 30\n' > arch/.hidden.folded
printf 'main;a 30\n' > arch/a.folded
(cd arch && $TOOL -q --svg . && rm a.folded && $TOOL --svg .)
echo "exit $?"
