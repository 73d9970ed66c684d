# A bad pattern of a transform is a usage error, named as --include's is;
# --skip-after takes a name, never a pattern.
for opt in focus ignore hide show-from prune-from; do
  $TOOL --$opt "a(" /dev/null
  echo "--$opt: exit $?"
done
printf 'p;a( 1\n' | $TOOL --skip-after "a("
