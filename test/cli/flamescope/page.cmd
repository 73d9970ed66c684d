# The page: one data block and one script, the data valid JSON whose cells
# hold every sample, at 7 rows a second, and whose stacks and weights, the
# tables unpacked as scope_page.h says (test/scope_page.py), are
# flamefold's folded lines.
in=$TESTDATA/example/example-perf.txt.gz
# The command it shows passes the fold options on, shell-quoted.
"$TOOL" --rows 7 --title 'A <title> & more' --pid --exclude 'no such frame' -o page.html "$in"
python3 "$TESTDATA/../test/scope_page.py" page.html "$TESTDATA" page.folded
# The samples and their weight in flamefold's fold.
zcat "$in" | grep -c '^[^	#].* [0-9]*\.[0-9]*: '
"$TOOLS/flamefold" --pid "$in" | tee folded | awk '{ n += $NF } END { printf "%.0f\n", n }'
cmp folded page.folded && echo "the page's stacks and weights are flamefold's"
