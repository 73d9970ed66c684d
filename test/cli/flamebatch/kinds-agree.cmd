# flamefold, flamediff and flamebatch tell what a file holds with one
# detector (collapse/input_kind.h), whatever its form: each profile below
# (folded stacks, a perf script transcript, gzip and zstd copies of both, a
# perf.data and a pipe-mode perf.data) is folded to the same stacks by all
# three, and so is a folded file with an indented odd line (flamefold took
# it for perf script output, flamediff for folded stacks). A file of notes is passed over by flamebatch, refused by flamefold
# (stackcollapse-perf.pl finds no sample in it) and read by flamediff as
# difffolded.pl reads any text, each line without a count an empty stack.
export HOME=/nonexistent
d=$TESTDATA/perf-data
opts=(--symfs "$d/root" --kallsyms "$d/two-events/kallsyms")
mkdir in
printf 'main;work;spin 30\nmain;idle 12\n' > in/stacks.folded
printf 'main;work 5\n  (an indented remark)\nmain;idle 3\n' > in/odd.folded
cp "$TESTDATA/perf-script/jit.txt" in/jit.txt
for f in stacks.folded jit.txt; do
  gzip -c "in/$f" > "in/$f.gz"
  zstd -q -c "in/$f" > "in/$f.zst"
done
cp "$d/two-events/perf.data" in/two-events.data
cp "$d/pipe/perf.data" in/pipe.data
printf 'Notes on these profiles.\nSee chapter 2\nand the rest.\n' > in/notes.txt
"$TOOLS/flamebatch" --jobs 1 --folded "${opts[@]}" -o out in 2> batch.err
echo "flamebatch: exit $?"
for f in $(cd in && ls); do
  batch=$(sed -n "s/^flamebatch: \[[0-9/]*\] \(.*\): $f\$/\1/p" batch.err)
  "$TOOLS/flamefold" "${opts[@]}" "in/$f" > fold.out 2> fold.err
  fold=$?
  "$TOOLS/flamediff" "${opts[@]}" "in/$f" "in/$f" > diff.out 2> diff.err
  diff=$?
  # flamediff prints STACK COUNT COUNT: with the last count cut, the lines
  # flamefold folds, in some order, and an empty stack for each odd line.
  grep -v '^ ' diff.out | sed 's/ [^ ]*$//' | sort > diff.stacks
  if [ -s fold.out ] && cmp -s fold.out "out/$f.folded" &&
     sort fold.out | cmp -s - diff.stacks; then
    same="the same $(wc -l < fold.out) stacks"
  else
    same="not one profile"
  fi
  echo "$f: flamebatch $batch, flamefold exit $fold, flamediff exit $diff: $same"
  [ "$f" = notes.txt ] && cp fold.err notes.fold.err && cp diff.err notes.diff.err && cp diff.out notes.diff.out
done
echo "notes.txt, as each tool says it:"
grep -h 'notes.txt' batch.err notes.fold.err notes.diff.err
cat notes.diff.out
