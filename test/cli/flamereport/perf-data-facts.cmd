# A perf.data report opens with the recording's facts (host, command line,
# event and rate, duration, samples, lost samples, frames without a symbol and
# their DSOs); the counts are named as what they are, sums of cpu-clock
# periods (ns), with the number of samples; each top function shows its
# callers (leaf_mul: top and main) as well as its callees. The input is read,
# never changed.
P=$TESTDATA/perf-data
cp "$P/fp-user/perf.data" fp-user.data
sum=$(cksum < fp-user.data)
HOME=/nonexistent $TOOL --symfs "$P/root" --kallsyms "$P/fp-user/kallsyms" \
  --top 3 fp-user.data
echo "exit $?"
[ "$(cksum < fp-user.data)" = "$sum" ] && echo "input unchanged"
