#!/usr/bin/env python3
"""Writes the committed hostile inputs of testdata/bad/ (deterministic:
fixed seeds, made from the small inputs next door). Run from testdata/:
    python3 bad/make.py
The big ones (a 20 MB line, 100,000-deep stacks, 1 MB names) are not
committed: test/hostile.sh makes them at test time with
    python3 bad/make.py --big DIR"""
import gzip
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(DATA, path), "rb") as f:
        return f.read()


def flip(data, seed, count):
    rng = random.Random(seed)
    b = bytearray(data)
    for _ in range(count):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def nobits_section(elf, name):
    """`elf` (64-bit, little-endian) with section `name` made SHT_NOBITS."""
    b = bytearray(elf)
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    strtab_off, = struct.unpack_from("<Q", b, shoff + shstrndx * shentsize + 24)
    for i in range(shnum):
        at = shoff + i * shentsize
        name_off, = struct.unpack_from("<I", b, at)
        start = strtab_off + name_off
        if bytes(b[start:start + len(name) + 1]) == name + b"\0":
            struct.pack_into("<I", b, at + 4, 8)  # SHT_NOBITS
            return bytes(b)
    raise ValueError("no section " + name.decode())


def main():
    rng = random.Random(8)
    # perf.data: cut short at the header, inside the attributes, inside the
    # data section; bit flips in the whole file and in the header only.
    fp = read("perf-data/fp-user/perf.data")
    pipe = read("perf-data/pipe/perf.data")
    zst = read("perf-data/zstd/perf.data")
    for cut in (7, 60, 200, len(fp) // 2, len(fp) - 3):
        write("perf-data-cut-%d.data" % cut, fp[:cut])
    write("perf-data-pipe-cut.data", pipe[: len(pipe) // 3])
    write("perf-data-zstd-cut.data", zst[: len(zst) * 2 // 3])
    for seed in range(4):
        write("perf-data-flip-%d.data" % seed, flip(fp, seed, 40))
    write("perf-data-flip-header.data", flip(fp[:104], 99, 6) + fp[104:])
    write("perf-data-pipe-flip.data", flip(pipe, 5, 30))
    write("perf-data-zstd-flip.data", flip(zst, 6, 20))
    # DWARF call graphs: bits flipped in the samples' registers and stack
    # copies (the second half of a small uncompressed pipe-mode recording),
    # and anywhere.
    dw = read("perf-data/dwarf-shlib/small-pipe.data")
    half = len(dw) // 2
    for seed in range(3):
        write("perf-data-dwarf-flip-%d.data" % seed,
              dw[:half] + flip(dw[half:], 20 + seed, 60))
    write("perf-data-dwarf-flip-any.data", flip(dw, 30, 40))
    # Forged lengths in the file header (offsets 8: header size, 16: attr
    # size, 24/32: attrs, 40/48: data, 56/64: event types, all u64).
    def forge(offset, value):
        return fp[:offset] + struct.pack("<Q", value) + fp[offset + 8:]
    write("perf-data-forged-data-size.data", forge(48, 1 << 62))
    write("perf-data-forged-data-offset.data", forge(40, (1 << 64) - 16))
    write("perf-data-forged-attrs-size.data", forge(32, 1 << 40))
    write("perf-data-forged-attr-size.data", forge(16, 1 << 33))
    write("perf-data-forged-header-size.data", forge(8, 1 << 31))
    # Every record header of the data section claiming 0 bytes, or 0xffff.
    data_off, data_size = struct.unpack_from("<QQ", fp, 40)
    rec0 = bytearray(fp)
    struct.pack_into("<H", rec0, data_off + 6, 0)
    write("perf-data-forged-record-size-0.data", bytes(rec0))
    struct.pack_into("<H", rec0, data_off + 6, 0xFFFF)
    write("perf-data-forged-record-size-max.data", bytes(rec0))
    # Only the magic.
    write("perf-data-magic-only.data", b"PERFILE2")
    # Compressed text cut short, and with flipped bits.
    gz = read("perf-script/cxx-fp.txt.gz")
    zs = read("perf-script/cxx-fp.txt.zst")
    write("cut.txt.gz", gz[: len(gz) // 2])
    write("cut-header.txt.gz", gz[:5])
    write("flip.txt.gz", flip(gz, 7, 10))
    write("cut.txt.zst", zs[: len(zs) // 2])
    write("cut-header.txt.zst", zs[:6])
    write("flip.txt.zst", flip(zs, 8, 10))
    # A gzip member followed by garbage.
    write("trailing-garbage.txt.gz",
          gzip.compress(b"a;b 1\n", mtime=0) + b"\x1f\x8bjunk")
    # Random bytes, NUL bytes, NULs inside text.
    write("random.bin", bytes(rng.randrange(256) for _ in range(4096)))
    write("nul.bin", b"\0" * 4096)
    write("nul-in-folded.txt", b"a;b 1\nc;\0d 2\n\0\0\0 3\n")
    write("nul-in-perf-script.txt",
          b"prog 1 [000] 1.0: 1 cycles:\n\tffff f\0oo (/bin/x)\n\n")
    # Hostile names, as folded text and as perf script text.
    names = [
        b"<script>alert(1)</script>",
        b"]]>",
        b"\"quoted\" 'single'",
        b"ctl\x01\x02\x07\x1b[31m\x7f",
        b"bad\xff\xfe\xc0\xafutf8\xed\xa0\x80",
        b"amp&amp;&lt;&#0;&#x1;",
        b"cr\rname",
        b"space name with ; semi",
        b"tab\tname",
        b"\xef\xbf\xbe\xef\xbf\xbf",
        b"<![CDATA[x]]>",
        b"--><!--",
    ]
    folded = b""
    for i, n in enumerate(names):
        folded += b"proc;" + n + b";leaf%d %d\n" % (i, i + 1)
    folded += b";".join(names) + b" 7\n"
    write("hostile-names.folded", folded)
    script = b""
    for i, n in enumerate(names):
        script += b"proc%d 1%d [000] 1.%d: 1 cycles:\n" % (i, i, i)
        script += b"\tffffffff81000000 " + n + b"+0x1 (/bin/" + n + b")\n"
        script += b"\t400000 main (/bin/prog)\n\n"
    write("hostile-names.perf-script.txt", script)
    write("hostile-names-diff.folded",
          b"".join(b"x;" + n + b" 1 2\n" for n in names))
    # Forged lengths in compressed streams: a zstd frame header claiming
    # 2^60 bytes of content in a single segment (a decoder sizing its window
    # by it would ask for an exabyte), and a gzip header whose extra field
    # claims 65535 bytes that are not there.
    body = b"a;b 1\n"
    write("forged-content-size.txt.zst",
          b"\x28\xb5\x2f\xfd" + b"\xe0" + struct.pack("<Q", 1 << 60) +
          struct.pack("<I", (len(body) << 3) | 1)[:3] + body)
    write("forged-extra-length.txt.gz",
          b"\x1f\x8b\x08\x04" + b"\0" * 6 + struct.pack("<H", 0xFFFF) +
          b"short")
    # --srcline text holding ';' (kept in the frame, as the Perl script
    # keeps it, so the folded line reads as more frames than the stack
    # has): found by the perf script fuzz target's limit check.
    write("srcline-semicolons.perf-script.txt",
          b"prog 1 [000] 1.0: 1 cycles:\n\t1 leaf (/bin/prog)\n"
          b"  a.c;b;c;d;e:1\n\t2 main (/bin/prog)\n  main.c:7\n\n")
    # An ELF file whose .gnu_debuglink takes no bytes in the file
    # (SHT_NOBITS): libelf gives its data without a buffer.
    write("elf-nobits-debuglink", nobits_section(
        read("perf-data/root/tmp/ffrec/work-stripped"), b".gnu_debuglink"))
    # Lines without counts, huge counts, odd numbers.
    write("odd-counts.folded",
          b"a;b 99999999999999999999999999999999999999\n"
          b"a;c 1.5.5\n a 1e308\na;d -3\na;e 0\na;f 00000.000001\n"
          b"a;g 18446744073709551616\n")


def big(d):
    """The inputs too big to commit, written to folder `d`."""
    os.makedirs(d, exist_ok=True)
    def out(name, data):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    # A 20 MB line without a newline, and one inside perf script text.
    out("line-20mb.txt", b"a" * (20 << 20))
    out("line-20mb.perf-script.txt",
        b"prog 1 [000] 1.0: 1 cycles:\n\t4000 " + b"f" * (20 << 20) +
        b" (/bin/prog)\n\t4001 main (/bin/prog)\n\n")
    # A 100,000-deep stack of distinct names (past --max-stack-depth's
    # 65536), folded (also gzip-compressed) and as perf script text, one line per frame.
    deep = b";".join(b"f%d" % i for i in range(100000)) + b" 5\nshort;stack 1\n"
    out("deep-100k.folded", deep)
    out("deep-100k.folded.gz", gzip.compress(deep, mtime=0))
    out("deep-100k.perf-script.txt",
        b"prog 1 [000] 1.0: 1 cycles:\n" +
        b"".join(b"\t%x f%d (/bin/prog)\n" % (0x400000 + i, i)
                 for i in range(100000)) + b"\n")
    # One sample of 20 MB (800,000 frame lines): more text without a sample
    # boundary than flamefold --jobs holds before parsing it sequentially.
    out("sample-20mb.perf-script.txt",
        b"prog 1 [000] 1.0: 1 cycles:\n" +
        b"".join(b"\t%x f%d (/bin/prog)\n" % (0x400000 + i, i % 5000)
                 for i in range(800000)) +
        b"\nprog 1 [000] 1.0: 1 cycles:\n\t1 main (/bin/prog)\n\n")
    # 1 MB frame names (past --max-frame-length's 256 KiB), one made of the
    # characters that need escaping and invalid UTF-8; folded and as perf
    # script text.
    out("names-1mb.folded",
        b"p;" + b"x" * (1 << 20) + b";leaf 3\n" +
        b"p;" + b"<&\"'\x01\xff" * (1 << 17) + b" 2\n")
    out("names-1mb.perf-script.txt",
        b"prog 1 [000] 1.0: 1 cycles:\n\t4000 " + b"<script>" * (1 << 17) +
        b" (/bin/prog)\n\t4001 main (/bin/prog)\n\n")


if len(sys.argv) == 3 and sys.argv[1] == "--big":
    big(sys.argv[2])
else:
    main()
