# --stats says how many samples --time-range kept, of how many, and the
# times the input holds.
gzip -dc "$TESTDATA/time-range/two-events.txt.gz" |
  $TOOL --stats -q --time-range 3450.5,3451.0 > /dev/null
