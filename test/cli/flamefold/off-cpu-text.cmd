# --off-cpu on perf script text: a wait runs from its sched_switch sample to
# the thread's switch-in (a sched_switch naming it next_pid, or a
# PERF_RECORD_SWITCH IN); idle (pid 0) and dying (X) switch-outs are no
# waits; the wait open at the end is cut at the last line's time. Sums in
# ns, rounded once per stack: 0.7 + 0.7 us on one stack print 1 us, and
# 0.4 us on another nothing.
cat > in.txt <<'TEXT'
aa 10/10 [000] 1.000000000: sched:sched_switch: prev_comm=aa prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=bb next_pid=11 next_prio=120
	1 sleep (/bin/a)
	2 main (/bin/a)

bb 11/11 [000] 1.000000700: sched:sched_switch: prev_comm=bb prev_pid=11 prev_prio=120 prev_state=D ==> next_comm=aa next_pid=10 next_prio=120
	3 read (/bin/b)

aa 10/10 [000] 1.000001000: sched:sched_switch: prev_comm=aa prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
	1 sleep (/bin/a)
	2 main (/bin/a)

aa 10/10 [000] 1.000001700: PERF_RECORD_SWITCH IN
bb 11/11 [000] 1.000001100: PERF_RECORD_SWITCH IN
swapper 0/0 [000] 1.000003000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=cc next_pid=12 next_prio=120
	4 idle (/bin/k)

cc 12/12 [000] 1.000004000: sched:sched_switch: prev_comm=cc prev_pid=12 prev_prio=120 prev_state=X ==> next_comm=aa next_pid=10 next_prio=120
	5 exit (/bin/c)

aa 10/10 [000] 1.000005000: sched:sched_switch: prev_comm=aa prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=bb next_pid=11 next_prio=120
	6 spin (/bin/a)

bb 11/11 [000] 1.000010000: PERF_RECORD_EXIT(11:11):(1:1)
TEXT
$TOOL --off-cpu --off-cpu-unit us --stats -q in.txt 2>&1 | grep -v "stats: [0-9]"
$TOOL --off-cpu --off-cpu-unit ns --off-cpu-state R in.txt
