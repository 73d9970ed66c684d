# A recording's samples by second add up to the samples flamefold folds.
in=$TESTDATA/perf-data/system-wide/perf.data
export HOME=/nonexistent
"$TOOL" -q --per-second --kallsyms "$TESTDATA/perf-data/system-wide/kallsyms" "$in" > got
cat got
folded=$("$TOOLS/flamefold" -q --stats --kallsyms "$TESTDATA/perf-data/system-wide/kallsyms" "$in" 2>&1 >/dev/null |
  sed -n 's/.* \([0-9]*\) samples folded.*/\1/p')
awk -v want="$folded" 'NR > 1 { n += $2 } END { print (n == want ? "all " n " samples" : "sum " n ", flamefold " want) }' got
