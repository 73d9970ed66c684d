# perf script text does not say when the recording ended: percent slices
# need the perf.data.
gzip -dc "$TESTDATA/perf-data/time-range/two-events.txt.gz" |
  $TOOL --time-range 10%/2
