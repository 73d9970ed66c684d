# --include keeps the stacks flamefold keeps: the seconds add up to the
# samples it folds less those it filters out.
in=$TESTDATA/example/example-perf.txt.gz
"$TOOL" --per-second --include '^gzip;' "$in" > got
stats=$("$TOOLS/flamefold" --stats --include '^gzip;' "$in" 2>&1 >/dev/null | grep 'samples folded')
kept=$(sed 's/.* \([0-9]*\) samples folded, .* \([0-9]*\) filtered out/\1 \2/' <<< "$stats" | awk '{ print $1 - $2 }')
awk -v want="$kept" 'NR > 1 { n += $2 } END { print (n == want && n > 0 ? "kept " n : "sum " n ", want " want) }' got
