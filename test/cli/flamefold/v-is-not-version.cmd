# "-v" is not --version (nor a prefix of it, nor -V): every tool calls it
# unknown (exit 2, stderr only), as the Perl scripts do, so that
# `perf script | flamefold -v | flamesvg` puts no version into the pipe
# and does not exit 0; --version and -V stay.
for t in flamefold flamesvg flamediff flamereport flamebatch flamerecord; do
  $TOOLS/$t -v a b < /dev/null; echo "$t -v: $?"
  $TOOLS/$t -V | sed 's/ [0-9][0-9.]*$/ VERSION/'; echo "$t -V: ${PIPESTATUS[0]}"
done
printf 'a;b 1\n' | $TOOL -v | wc -c
