#!/usr/bin/env python3
"""Checks flamefold's exports of one fold against that fold's folded lines.

Written apart from flamefold's writers, from the formats' own definitions:
  speedscope: the samples, read back through the shared frames, add up to
    the folded stacks' counts, each profile's endValue its total; a single
    profile (folded input) has the folded stacks in their order; with
    --perf-text (the perf script text folded), one profile per thread of
    the first event, named comm-tid, with that thread's number of samples,
    the threads in the order of their first sample;
  d3: every node's value is its own count (the folded line ending there)
    plus its children's values, the root's the total, and the tree's paths
    with a count are the folded stacks;
  pprof (the text `protoc --decode perftools.profiles.Profile` prints): the
    samples, leaf first, are the folded stacks with their counts, and each
    function's flat and cumulative totals (a sample counted once per
    function, however often it recurs) are flamereport's self and total
    samples (flamereport --format=json --top 0) for every function that is
    no process frame.

Usage: exports_check.py FOLDED [--speedscope F [--perf-text F]] [--d3 F] [--pprof-text F
       --report F]; prints what differs and exits 1, else 0.
"""
import argparse
import codecs
import gzip
import json
import re
import sys
from collections import defaultdict


def folded_lines(path):
    """[(frames tuple, count)] in file order."""
    out = []
    with open(path, 'rb') as f:
        for line in f.read().decode('utf-8', 'replace').splitlines():
            stack, count = line.rsplit(' ', 1)
            out.append((tuple(stack.split(';')), int(count)))
    return out


def check_speedscope(path, stacks, errors, text=None):
    doc = json.load(open(path, encoding='utf-8'))
    if doc.get('$schema') != 'https://www.speedscope.app/file-format-schema.json':
        errors.append('speedscope: no $schema')
    frames = [f['name'] for f in doc['shared']['frames']]
    profiles = doc['profiles']
    if not 0 <= doc.get('activeProfileIndex', -1) < max(len(profiles), 1):
        errors.append('speedscope: activeProfileIndex out of range')
    summed = defaultdict(int)
    for profile in profiles:
        if profile['type'] != 'sampled':
            errors.append('speedscope: profile type %r' % profile['type'])
        if len(profile['samples']) != len(profile['weights']):
            errors.append('speedscope: samples and weights differ in number')
        got = [(tuple(frames[i] for i in s), w)
               for s, w in zip(profile['samples'], profile['weights'])]
        if len(profiles) == 1 and text is None and got != stacks:
            errors.append('speedscope: the samples are not the folded stacks')
        for stack, w in got:
            summed[stack] += w
        if (profile['endValue'] != sum(profile['weights']) or
                profile['startValue'] != 0):
            errors.append('speedscope: %s: endValue %r, weights %r' %
                          (profile['name'], profile['endValue'],
                           sum(profile['weights'])))
    if dict(summed) != dict(stacks):
        errors.append('speedscope: the samples do not add up to the stacks')
    if text is not None:
        want = thread_samples(text)
        got = [(p['name'], len(p['samples'])) for p in profiles]
        if got != want:
            errors.append('speedscope: threads %r, perf script gives %r' %
                          (got[:5], want[:5]))


# A header line of perf script: comm, [pid/]tid, [cpu], time, [period]
# and event ("sh  8989   876.926689:    2004008 cpu-clock:ppp: ",
# "iperf 27409/28744 [000] 441995.133575: cpu-clock: ").
HEADER = re.compile(r'^(\S.*?)\s+(?:\d+/)?(\d+)\s+(?:\[\d+\]\s+)?'
                    r'([0-9]+\.[0-9]+):\s+(?:\d+\s+)?(\S+):')


def thread_samples(path):
    """[("comm-tid", samples)] of the first event's samples, the threads in
    the order of their first sample's time; as stackcollapse-perf.pl, a
    sample counts when a blank line ends it."""
    opener = gzip.open if path.endswith('.gz') else open
    first, counts, event, pending = {}, defaultdict(int), None, None
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        for line in f:
            if line == '\n' and pending:  # the blank line ends a sample
                tid, time, comm = pending
                if tid not in first:
                    first[tid] = (time, tid, comm)
                counts[tid] += 1
                pending = None
            m = HEADER.match(line)
            if not m:
                continue
            event = event or m.group(4)
            pending = None
            if m.group(4) == event:
                pending = (int(m.group(2)), float(m.group(3)), m.group(1))
    order = sorted(first.values())
    return [('%s-%d' % (comm, tid), counts[tid]) for _, tid, comm in order]


def check_d3(path, stacks, errors):
    root = json.load(open(path, encoding='utf-8'))
    own = dict(stacks)
    seen = {}

    def walk(node, path):
        kids = node.get('children', [])
        names = [k['name'] for k in kids]
        if len(set(names)) != len(names):
            errors.append('d3: %r has two children of one name' % (path,))
        expected = own.get(path, 0) + sum(k['value'] for k in kids)
        if node['value'] != expected:
            errors.append('d3: %r: value %r, own and children %r' %
                          (path, node['value'], expected))
        if path in own:
            seen[path] = True
        for k in kids:
            walk(k, path + (k['name'],))

    sys.setrecursionlimit(100000)
    if root['name'] != 'root':
        errors.append('d3: the root is named %r' % root['name'])
    walk(root, ())
    if root['value'] != sum(c for _, c in stacks):
        errors.append('d3: root value %r is not the total' % root['value'])
    if len(seen) != len(own):
        errors.append('d3: %d of %d stacks are paths of the tree' %
                      (len(seen), len(own)))


def protoc_text(path):
    """The messages of protoc's text: {field: [values or dicts]}."""
    token = re.compile(r'\s*(?:(\w+) \{|(\w+): ("(?:[^"\\]|\\.)*"|\S+)|(\}))')
    text = open(path).read()
    stack = [defaultdict(list)]
    pos = 0
    while pos < len(text):
        m = token.match(text, pos)
        if not m:
            if text[pos:].strip():
                raise ValueError('protoc text at %d' % pos)
            break
        pos = m.end()
        if m.group(1):
            child = defaultdict(list)
            stack[-1][m.group(1)].append(child)
            stack.append(child)
        elif m.group(4):
            stack.pop()
        else:
            value = m.group(3)
            if value.startswith('"'):
                value = codecs.escape_decode(value[1:-1].encode())[0]
                value = value.decode('utf-8')
            elif value in ('true', 'false'):
                value = value == 'true'
            else:
                value = int(value)
            stack[-1][m.group(2)].append(value)
    return stack[0]


def check_pprof(path, report_path, stacks, errors):
    p = protoc_text(path)
    strings = p['string_table']
    if strings[0] != '':
        errors.append('pprof: string_table[0] is not ""')
    types = [(strings[t['type'][0]], strings[t['unit'][0]])
             for t in p['sample_type']]
    # The number of samples, then (perf input counting periods) the
    # count in the event's unit: the folded count is the last value.
    if not types or types[0] != ('samples', 'count') or len(types) > 2:
        errors.append('pprof: sample types %r' % types)
    names = {f['id'][0]: strings[f['name'][0]] for f in p['function']}
    locations = {l['id'][0]: names[l['line'][0]['function_id'][0]]
                 for l in p['location']}
    mappings = {m['id'][0]: m for m in p.get('mapping', [])}
    for l in p['location']:
        m = l.get('mapping_id', [0])[0]
        if m and (m not in mappings or not strings[mappings[m]['filename'][0]]):
            errors.append('pprof: location %d: mapping %d without a file'
                          % (l['id'][0], m))
            break
    got = [(tuple(locations[i] for i in reversed(s['location_id'])),
            s['value'][-1]) for s in p['sample']]
    if any(len(s['value']) != len(types) for s in p['sample']):
        errors.append('pprof: a sample without a value of each type')
    if got != stacks:
        errors.append('pprof: the samples are not the folded stacks')
    flat, cum = defaultdict(int), defaultdict(int)
    for frames, value in got:
        flat[frames[-1]] += value if len(frames) > 1 else 0
        for name in set(frames[1:]):
            cum[name] += value
    report = json.load(open(report_path, encoding='utf-8'))
    want_flat = {f['function']: f['self_samples'] for f in report['top_self']}
    want_cum = {f['function']: f['total_samples'] for f in report['top_total']}
    if {k: v for k, v in flat.items() if v} != {k: v for k, v in want_flat.items() if v}:
        errors.append('pprof: flat totals are not flamereport\'s self samples')
    if dict(cum) != want_cum:
        errors.append('pprof: cum totals are not flamereport\'s total samples')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('--speedscope')
    ap.add_argument('--perf-text')
    ap.add_argument('--d3')
    ap.add_argument('--pprof-text')
    ap.add_argument('--report')
    args = ap.parse_args()
    stacks = folded_lines(args.folded)
    errors = []
    if not stacks:
        errors.append('the fold is empty: nothing is checked')
    if args.speedscope:
        check_speedscope(args.speedscope, stacks, errors, args.perf_text)
    if args.d3:
        check_d3(args.d3, stacks, errors)
    if args.pprof_text:
        check_pprof(args.pprof_text, args.report, stacks, errors)
    for e in errors[:20]:
        print(e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
