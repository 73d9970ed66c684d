# --on-off on perf script text: the CPU samples of cpu-clock count their
# periods (ns) on their stacks, the waits on theirs, every frame of which,
# the process frame too, is marked _[o]; both sums are rounded to the unit
# once (250.4 + 250.4 us: 501, not 500). Then CPU samples of an event
# whose periods are no time: an error.
cat > in.txt <<'TEXT'
aa  10/10  1.000000000:          1 sched:sched_switch: prev_comm=aa prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=bb next_pid=11 next_prio=120
	1 sleep (/bin/a)
	2 main (/bin/a)

aa  10/10  1.000300000:     250400          cpu-clock:
	3 work (/bin/a)
	2 main (/bin/a)

aa  10/10  1.000550000:     250400          cpu-clock:
	3 work (/bin/a)
	2 main (/bin/a)

TEXT
$TOOL --on-off --stats -q in.txt 2>&1 | grep -v "stats: [0-9]"
sed 's/cpu-clock:/cycles:/' in.txt | $TOOL --on-off
