#!/usr/bin/env python3
"""Off-CPU time per stack, computed from perf script text on its own: the
reference that `flamefold --off-cpu` is checked against.

The text it reads is what testdata/perf-data/record.sh stores, made by
  perf script --ns -F comm,pid,tid,cpu,time,event,trace,ip,sym,dso \\
    --show-switch-events --show-task-events -i perf.data
of a recording of sched:sched_switch with call graphs, e.g.
  offcpu 17001/17001 [001] 23956.969212719: sched:sched_switch: prev_comm=offcpu prev_pid=17001 prev_prio=120 prev_state=S ==> next_comm=cc1plus next_pid=14598 next_prio=120
  	ffffffff82267448 __schedule ([kernel.kallsyms])
  	           67373 __clock_nanosleep (/tmp/ffoff/offcpu)
  offcpu 17001/17001 [001] 23956.989284105: PERF_RECORD_SWITCH IN
A wait begins at a sched_switch sample and belongs to its prev_pid (the
thread switched out: a dying thread's sample says tid -1) and to the stack
of that sample. It ends at the thread's first switch-in after it: a
sched_switch whose next_pid is the thread, a PERF_RECORD_SWITCH IN of the
thread, or another sample of the thread (which proves that it ran). Not
waits: switch-outs of the idle task (prev_pid 0) and of a dying thread
(prev_state X or Z). A switch-in with no wait open (the wait began before
the recording) adds nothing. PERF_RECORD_SWITCH OUT, which follows the
switch-out sample, changes nothing. A wait still open at the end of the
recording (the time of its last line) is counted up to it, and said so on
standard error.

The stacks are named as CPU samples' stacks are: each wait is written back
as a perf script sample whose period is the wait in nanoseconds, e.g.
  offcpu 17001/17001 [001] 23956.969212719: 20071386 sched:sched_switch:
followed by its stack, and piped through stackcollapse-perf.pl (or the
command --collapse gives: flamefold, which prints the same) with the
options given after `--` (--pid, --tid, --kernel...). The summed
nanoseconds of each stack are then printed in the unit asked for, rounded
to the nearest, and a stack that rounds to 0 is left out.

--on-off adds the CPU samples (any other event, e.g. cpu-clock, whose
period is nanoseconds) beside the waits, for a graph in which both widths
are time. The text then also holds each sample's period (-F ...,period,...,
without cpu, which the cpu-clock samples of a per-thread recording lack):
  offcpu  5908/5908  32997.264706146:     250000          cpu-clock:
  offcpu  5908/5908  32997.264864812:          1 sched:sched_switch: prev_comm=...
Each CPU sample counts its period in ns for its stack; the waits' stacks
have "_[o]" after every frame, the process frame included
("offcpu_[o];main_[o];sleep_a_[o];..."), so that no off-CPU frame merges
with an on-CPU one. Both are folded apart (the annotation would not survive
the collapse), then summed per stack in ns and converted once, as above.

Usage:
  offcpu_reference.py [--unit ns|us|ms] [--state S,D,R...] [--min-us N]
      [--on-off] [--time-range START,END] [--collapse COMMAND] [--check PROGRAM_OUTPUT]
      SCRIPT_TEXT[.gz]
      [-- COLLAPSE_OPTIONS...]
--time-range START,END (seconds as perf prints them, either side empty)
keeps the waits that began inside it, bounds included, and with --on-off
the CPU samples inside it; a wait is not clipped to the range.
--state keeps waits whose prev_state (without a trailing "+", the mark of
a preemption: "R+" is R) is one of those listed; --min-us drops waits
shorter than N microseconds. --check prints, for each function the
program's output names ("sleep_a 100.412 ms (100 ms asked)": the time it
measured in its blocking calls), that time, the off-CPU time of the stacks
holding the function, and exits 1 if the two differ by more than 5%.
Without --collapse: perl $FLAMEGRAPH_DIR/stackcollapse-perf.pl, FLAMEGRAPH_DIR
being /tmp/FlameGraph when unset.
"""
import argparse
import gzip
import os
import re
import shlex
import subprocess
import sys

HEADER = re.compile(r'^(?P<head>(?P<comm>\S.*?)\s+(?P<pid>-?\d+)/(?P<tid>-?\d+)'
                    r'(?:\s+\[\d+\])?\s+(?P<sec>\d+)\.(?P<frac>\d+):)\s+(?P<rest>.*)$')
SWITCH_SAMPLE = re.compile(r'^(?:\d+\s+)?(?P<event>\S+:sched_switch:)\s.*\bprev_pid=(?P<prev>-?\d+)'
                           r'\s.*\bprev_state=(?P<state>\S+)\s.*\bnext_pid=(?P<next>-?\d+)')
UNITS = {'ns': 1, 'us': 1000, 'ms': 1000000}


def read_blocks(path):
    """Yields (header match, stack lines) for each line that starts a sample
    or a side-band record, in the order of the text."""
    opener = gzip.open if path.endswith('.gz') else open
    header, stack = None, []
    with opener(path, 'rt', errors='replace') as text:
        for line in text:
            if line.strip() == '':
                continue
            if line[0].isspace():
                stack.append(line)
                continue
            if header:
                yield header, stack
            header, stack = HEADER.match(line.rstrip('\n')), []
    if header:
        yield header, stack


def time_ns(header):
    frac = header.group('frac').ljust(9, '0')[:9]
    return int(header.group('sec')) * 1000000000 + int(frac)


def parse_range(text):
    """perf script --time's START,END in seconds (either side empty) as
    (start ns, end ns), both inclusive; None for an empty side."""
    def ns(side):
        if side == '':
            return None
        sec, _, frac = side.partition('.')
        return int(sec) * 1000000000 + int(frac.ljust(9, '0')[:9] or 0)
    start, end = text.split(',')
    return ns(start), ns(end)


def in_range(at, time_range):
    start, end = time_range
    return (start is None or at >= start) and (end is None or at <= end)


class Waits:
    def __init__(self, states, min_ns, time_range=(None, None)):
        self.states, self.min_ns = states, min_ns
        self.time_range = time_range
        self.open = {}  # tid -> (start ns, header match, event, stack)
        self.samples = []  # perf script text of the waits, ns as periods
        self.cut = 0
        self.cut_ns = 0

    def begin(self, tid, start, header, event, stack, state):
        if self.states and state.rstrip('+') not in self.states:
            return
        self.open[tid] = (start, header, event, stack)

    def end(self, tid, at):
        wait = self.open.pop(tid, None)
        if wait is None:
            return
        start, header, event, stack = wait
        if at - start < self.min_ns or at <= start:
            return
        # A wait belongs to the time of its switch-out, as a sample does.
        if not in_range(start, self.time_range):
            return
        self.samples.append(f"{header.group('head')} {at - start} {event}\n")
        self.samples.extend(stack)
        self.samples.append('\n')

    def close(self, last):
        for tid in list(self.open):
            before = len(self.samples)
            start = self.open[tid][0]
            self.end(tid, last)
            if len(self.samples) > before:
                self.cut += 1
                self.cut_ns += last - start


def collect(path, waits, cpu_samples=None):
    """Finds the waits of the text at `path`; with `cpu_samples` (a list),
    appends the text of every other sample to it."""
    last = 0
    for header, stack in read_blocks(path):
        if header is None:
            continue
        at = time_ns(header)
        last = max(last, at)
        tid = int(header.group('tid'))
        rest = header.group('rest')
        switch = SWITCH_SAMPLE.match(rest)
        if switch:
            prev, nxt = int(switch.group('prev')), int(switch.group('next'))
            state = switch.group('state')
            waits.end(tid, at)
            waits.end(prev, at)
            waits.end(nxt, at)
            if prev != 0 and state[0] not in 'XZ':
                waits.begin(prev, at, header, switch.group('event'), stack,
                            state)
        elif rest.startswith('PERF_RECORD_SWITCH IN'):
            waits.end(tid, at)
        elif not rest.startswith('PERF_RECORD_'):
            waits.end(tid, at)  # any other sample: the thread ran
            if cpu_samples is not None and in_range(at, waits.time_range):
                cpu_samples.append(header.string + '\n')
                cpu_samples.extend(stack)
                cpu_samples.append('\n')
    waits.close(last)


def collapse(samples, command, options):
    """The folded stacks of `samples` (perf script text), by `command`
    (argv; None: the Perl script) run with `options`."""
    if command is None:
        flamegraph = os.environ.get('FLAMEGRAPH_DIR', '/tmp/FlameGraph')
        command = ['perl', os.path.join(flamegraph, 'stackcollapse-perf.pl')]
    done = subprocess.run(command + options, input=''.join(samples),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=True)
    return done.stdout.splitlines()


def sum_ns(folded_ns, sums=None, mark=''):
    """Adds the folded lines' ns to `sums` by stack, with `mark` after each
    frame of the stack."""
    sums = {} if sums is None else sums
    for line in folded_ns:
        stack, ns = line.rsplit(' ', 1)
        if mark:
            stack = ';'.join(f + mark for f in stack.split(';'))
        sums[stack] = sums.get(stack, 0) + int(ns)
    return sums


def in_unit(sums, unit):
    out = []
    for stack in sorted(sums, key=lambda s: s.encode()):
        value = (sums[stack] + UNITS[unit] // 2) // UNITS[unit]
        if value > 0:
            out.append((stack, value))
    return out


def check(folded, unit, program_output):
    """Compares the off-CPU time of the stacks holding each function that
    the program's output names with the time the program measured in that
    function's blocking calls; True when all are within 5%. The time the
    program asked for is shown beside them."""
    ok = True
    print(f"{'function':<12} {'asked ms':>8} {'program ms':>11} "
          f"{'off-CPU ms':>11} {'diff':>7}")
    for line in open(program_output):
        # sleep_a 100.412 ms (100 ms asked)
        name, ms, _, asked = line.split()[:4]
        measured = float(ms)
        off = sum(v for s, v in folded if name in s.split(';'))
        off_ms = off * UNITS[unit] / 1e6
        diff = 100 * (off_ms - measured) / measured if measured else 0
        good = measured > 0 and abs(diff) <= 5
        ok = ok and good
        print(f"{name:<12} {asked.lstrip('('):>8} {measured:11.3f} "
              f"{off_ms:11.3f} {diff:+6.2f}%"
              f"{'' if good else '  MORE THAN 5% OFF'}")
    return ok


def main():
    argv = sys.argv[1:]
    collapse_options = []
    if '--' in argv:
        at = argv.index('--')
        argv, collapse_options = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(description='Off-CPU folded stacks')
    parser.add_argument('--unit', choices=UNITS, default='us')
    parser.add_argument('--state', default='')
    parser.add_argument('--min-us', type=int, default=0)
    parser.add_argument('--on-off', action='store_true')
    parser.add_argument('--time-range', type=parse_range, default=(None, None))
    parser.add_argument('--collapse', type=shlex.split)
    parser.add_argument('--check')
    parser.add_argument('script_text')
    args = parser.parse_args(argv)
    states = set(s for s in args.state.split(',') if s)
    waits = Waits(states, args.min_us * 1000, args.time_range)
    cpu_samples = [] if args.on_off else None
    collect(args.script_text, waits, cpu_samples)
    sums = sum_ns(collapse(waits.samples, args.collapse, collapse_options),
                  mark='_[o]' if args.on_off else '')
    if args.on_off:
        sum_ns(collapse(cpu_samples, args.collapse, collapse_options), sums)
    folded = in_unit(sums, args.unit)
    if args.check:
        return 0 if check(folded, args.unit, args.check) else 1
    for stack, value in folded:
        print(f'{stack} {value}')
    if waits.cut:
        print(f'offcpu_reference: {waits.cut} wait(s) cut by the end of the '
              f'recording, {waits.cut_ns / 1000:.0f} us counted',
              file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
