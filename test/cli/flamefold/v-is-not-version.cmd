# "-v" was read as --version (a prefix of it, or -V in another case), so
# `perf script | flamefold -v | flamesvg` put a version into the pipe and
# exited 0. Issue 16: every tool calls it unknown (exit 2, stderr only), as
# the Perl scripts do; --version and -V stay.
for t in flamefold flamesvg flamediff flamereport flamebatch flamerecord; do
  $TOOLS/$t -v a b < /dev/null; echo "$t -v: $?"
  $TOOLS/$t -V | sed 's/ [0-9][0-9.]*$/ VERSION/'; echo "$t -V: ${PIPESTATUS[0]}"
done
printf 'a;b 1\n' | $TOOL -v | wc -c
