# --off-cpu: the counts are time blocked, in --off-cpu-unit, which the
# totals, the headings and the CSV columns name; the samples are the
# sched_switch samples read.
export HOME=/nonexistent
d=$TESTDATA/perf-data/offcpu-fp
$TOOL --symfs "$d/root" --kallsyms "$d/kallsyms" --off-cpu --top 3 \
  "$d/perf.data" | sed -n '/^Total/,$p'
$TOOL --symfs "$d/root" --kallsyms "$d/kallsyms" --off-cpu \
  --off-cpu-unit ms --format csv --top 2 "$d/perf.data"
