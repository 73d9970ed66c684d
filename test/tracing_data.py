#!/usr/bin/env python3
"""Writes the tracing data of a file-mode perf.data (its HEADER_TRACING_DATA
feature section) to OUT: the seed of the tracepoint formats fuzzer.
Usage: tracing_data.py PERF_DATA OUT"""
import struct
import sys

data = open(sys.argv[1], 'rb').read()
if data[:8] != b'PERFILE2':
    sys.exit(f'{sys.argv[1]}: not a file-mode perf.data')
data_offset, data_size = struct.unpack_from('<QQ', data, 40)
features = int.from_bytes(data[72:104], 'little')
at = data_offset + data_size  # the feature sections' table, in bit order
for bit in range(256):
    if not features >> bit & 1:
        continue
    offset, size = struct.unpack_from('<QQ', data, at)
    at += 16
    if bit == 1:  # HEADER_TRACING_DATA
        open(sys.argv[2], 'wb').write(data[offset:offset + size])
        sys.exit(0)
sys.exit(f'{sys.argv[1]}: no tracing data')
