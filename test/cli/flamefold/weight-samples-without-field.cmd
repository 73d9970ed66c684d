# --weight bytes_alloc on a recording of kmem:kmalloc and
# sched:sched_process_exec: the exec sample has no such field, counts 0,
# and one warning counts it; the same from perf script's text.
export HOME=/nonexistent
d=$TESTDATA/perf-data/weight-kmalloc
cp "$d/perf.data" .
$TOOL --symfs "$d/root" --kallsyms "$d/kallsyms" --weight bytes_alloc \
  --include proc_self_get_link perf.data
zcat "$d/script.txt.gz" > script.txt
$TOOL --weight bytes_alloc --include proc_self_get_link script.txt
