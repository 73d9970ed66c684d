#!/usr/bin/env python3
"""Rewrites perf script text so that stackcollapse-perf.pl sums a
tracepoint field: each sample's header line, e.g.
  alloc 32219 [000] 21255.404833: probe_libc:malloc: (7f17b822e930) bytes=24
becomes "alloc 32219 [000] 21255.404833: 24 probe_libc:malloc:", the
field's value taking the place of the period; a sample whose header has no
such field, or a value of 0 (which the Perl script would count as 1), is
left out, as it adds nothing. Usage: weight.py FIELD < script.txt"""
import re
import sys

field = sys.argv[1]
value_re = re.compile(r'\s' + re.escape(field) + r'=(0x[0-9a-fA-F]+|\d+)(?=\s|$)')
header_re = re.compile(r'^(\S.*?\d+\.\d+:)\s+(\S+:)\s')
out = sys.stdout
block = []


def flush():
    if not block:
        return
    header = header_re.match(block[0])
    value = value_re.search(block[0])
    if header and value:
        n = int(value.group(1), 0)
        if n > 0:
            out.write(f'{header.group(1)} {n} {header.group(2)}\n')
            out.writelines(block[1:])
    block.clear()


for line in sys.stdin:
    if line.strip() == '':
        if block:
            block.append(line)
        flush()
    elif not block and line[0].isspace():
        continue  # no header: nothing to weigh
    else:
        block.append(line)
flush()
