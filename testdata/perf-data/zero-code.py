#!/usr/bin/env python3
"""zero-code.py FILE...: overwrites in place the bytes of the code and data
sections (.text, .rodata, .data, ...) of each ELF file with zeros, keeping
every offset, the program and section headers, the symbol tables, the CFI
(.eh_frame, .eh_frame_hdr) and the build-id note. The copies of shared
libraries kept for the perf.data goldens then compress to a fraction of
their size; what perf and flamefold read of them (symbols, CFI) is intact."""
import struct
import sys

ZERO = {'.text', '.rodata', '.data', '.data.rel.ro', '.gcc_except_table',
        '.plt', '.plt.got', '.plt.sec', '__libc_freeres_fn', '__libc_IO_vtables'}

def zero(path):
    with open(path, 'r+b') as f:
        b = bytearray(f.read())
        assert b[:4] == b'\x7fELF' and b[4] == 2 and b[5] == 1, path
        shoff, = struct.unpack_from('<Q', b, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
        def sh(i):
            return struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize)
        stroff = sh(shstrndx)[4]
        for i in range(shnum):
            name, typ, _, _, off, size = sh(i)[:6]
            end = b.index(b'\0', stroff + name)
            if typ != 8 and b[stroff + name:end].decode() in ZERO:  # not NOBITS
                b[off:off + size] = bytes(size)
        f.seek(0)
        f.write(b)

for p in sys.argv[1:]:
    zero(p)
