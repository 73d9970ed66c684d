# --off-cpu on text of perf script -F ...,period,... without cpu: the
# sched_switch samples print their period before the event.
cat > in.txt <<'TEXT'
aa  10/10  1.000000000:          1 sched:sched_switch: prev_comm=aa prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=bb next_pid=11 next_prio=120
	1 sleep (/bin/a)

aa  10/10  1.000250000:     250000          cpu-clock:
	2 work (/bin/a)

TEXT
$TOOL --off-cpu --off-cpu-unit ns in.txt
