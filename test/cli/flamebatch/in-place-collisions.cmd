# Run inside the archive folder, where x.folded, x.txt.gz and x.data share a
# stem and notes.md is no profile: each input gets outputs of its own (its
# whole name plus .folded and .svg), no input changes by a byte, notes.md is
# passed over with one warning without failing the batch, and a second run
# finds everything up to date and takes no output for an input.
mkdir arch
T=$TESTDATA
"$TOOLS/flamefold" -q --modern "$T/perf-script/jit.txt" > arch/x.folded
cp "$T/perf-script/cxx-fp.txt.gz" arch/x.txt.gz
cp "$T/perf-data/fp-user/perf.data" arch/x.data
printf '# Profiles of web1\n\nRecorded with perf 6.1 at 99 Hz.\n\n- x.data: after the fix\n- x.txt.gz: before it\n' > arch/notes.md
(cd arch && md5sum * > ../inputs.md5)
cd arch
fold=(--modern --symfs "$T/perf-data/root" --kallsyms "$T/perf-data/fp-user/kallsyms")
$TOOL --jobs 1 "${fold[@]}" .
echo "first run: exit $?"
$TOOL --jobs 1 "${fold[@]}" .
echo "second run: exit $?"
md5sum -c ../inputs.md5
ls -A
echo "listed as outputs:"
tr '\0' '\n' < .flamebatch-outputs
"$TOOLS/flamefold" -q "${fold[@]}" x.txt.gz | cmp - x.txt.gz.folded && echo "x.txt.gz.folded: x.txt.gz folded"
"$TOOLS/flamefold" -q "${fold[@]}" x.data | cmp - x.data.folded && echo "x.data.folded: x.data folded"
cmp x.folded x.folded.folded && echo "x.folded.folded: x.folded folded again"
grep -c '<title>' x.txt.gz.svg x.data.svg x.folded.svg | sed 's/:[0-9]*$/: has frames/'
