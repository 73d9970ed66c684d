#!/usr/bin/env python3
"""Differential fuzz of flamefold against stackcollapse-perf.pl.

Generates perf script transcripts full of awkward but plausible lines (fixed seed, so every run
tests the same inputs), folds each with both programs under several option sets and compares
standard output byte for byte. On a difference it shrinks the input to a minimal one that still
differs and prints it, with both outputs. Exit status: 0 all identical, 1 a difference, 2 usage.

Three modes:
  --perl-script stackcollapse-perf.pl            live: runs the Perl script beside flamefold
  --perl-script stackcollapse-perf.pl --bless F  writes the generated inputs and the Perl
                                                 script's outputs to the archive F (.tar.gz)
  --expected F                                   compares with the outputs stored in F, which
                                                 holds everything it needs (no Perl)

Usage: fold_vs_perl.py --flamefold BIN (--perl-script stackcollapse-perf.pl [--bless F] |
                       --expected F) [--seed N] [--files N] [--snippets N] [--time-limit SECONDS]
"""

import argparse
import gzip
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time

# Option sets, each run on every generated file.
OPTION_SETS = [
    [],
    ["--pid"],
    ["--tid"],
    ["--kernel"],
    ["--jit"],
    ["--all"],
    ["--addrs"],
    ["--tid", "--all", "--addrs"],
    ["--srcline"],
    ["--srcline", "--addrs", "--pid"],
    ["--event-filter=cycles"],
    ["--event-filter=cycles:u"],
]

COMMS = [b"a", b"x", b"7", b"0", b"java", b"java-thread", b"V8 WorkerThread", b"comm with  spaces",
         b"kworker/0:1", b"perf-exec", b"a:b", b"name(x)", b"semi;colon", b"tab\tcomm",
         b"q'uo\"te", b"\xc3\xa9t\xc3\xa9", b"\xff\xfe", b"swapper", b"1 2", b"sh"]
EVENTS = [b"cycles:", b"cycles:", b"cycles:", b"cycles:u:", b"cycles:ppp:", b"instructions:",
          b"cpu-clock:", b"sched:sched_switch:", b"raw_syscalls:sys_enter:"]
TRACE_TAILS = [b" prev_comm=x prev_pid=1 ==> next_comm=y", b" NR 1 (5, 7f00, 1)",
               b" fd: 0x00000005, buf: 0x7ffc, count: 0x1", b" ", b"  \t"]
PERIODS = [b"", b"1", b"0", b"00", b"007", b"250000", b"123456789", b"4294967296",
           b"9007199254740993", b"99999999999999999999"]
ADDRS = [b"ffffffff8100a1b2", b"0", b"7f00AB12", b"4005d0", b"DEADbeef", b"1", b"_x", b"g"]
SYMS = [b"main", b"main+0x1a", b"func+0x1A", b"func+0xzz", b"func+0x", b"+0x10", b"[unknown]",
        b"[unknown]", b"[unknown]+0x10", b"std::vector<int, std::allocator<int> >::push_back(int const&)",
        b"(anonymous namespace)::f+0x3", b"ns::(anonymous namespace)::g",
        b"std::function<void (int)>::operator()+0x10", b"operator()", b"foo->bar->baz",
        b"inl1->[unknown]->inl2+0x4", b"Lorg/x/Y;.call(Ljava/lang/Object;)V",
        b"Ljava/lang/Thread;::run", b"LNoSlash;::x", b"net/http.(*Client).Do+0x22",
        b"RegExp:[&<>\"']", b"a;b;c", b"func (with space)", b"sym )", b"x\xff\xfe",
        b"cpu_startup_entry+0x800047c022ec", b"(", b")", b"name)(", b"_[j]x", b"f_[i]", b" lead",
        b"0", b"\xc2\xa0nbsp", b"tab\tsym", b"dup  spaces", b"->", b"a->", b"__libc_start_main"]
MODS = [b"(/usr/lib/libc.so.6)", b"([kernel.kallsyms])", b"([kernel.kallsyms])", b"([unknown])",
        b"([unknown])", b"(/tmp/perf-123.map)", b"(/tmp/perf-x.map)", b"(/lib/modules/6.1/build/vmlinux)",
        b"(/boot/vmlinux-6.1)", b"([nf_conntrack])", b"(/usr/lib/jvm/libjvm.so)", b"(inlined)", b"()",
        b"(a (b) c)", b"(/path with space/x.so)", b"(mod", b"", b"(/tmp/perf-12.map) trailing",
        b"(x.ko)", b"([unknown]) (x)", b"(unknownish)"]
SRCLINES = [b"  file.c:12", b"  libc.so.6[27b25]", b"  [kernel.kallsyms][ffffffff8100]", b"  ", b"",
            b"  a [b] c [d]", b"\tx.cc:7  ", b"  ??:0"]
ODD_LINES = [b"", b"   ", b"\t", b"\r", b" \r", b"# comment", b"#", b"# cmdline : /usr/bin/perf record -g ./a.out",
             b"garbage line", b"\x85", b"\xa0", b"\x0b", b"\x0c", b"}", b"x 12", b"  12 34",
             b"\t 4005d0 main (/bin/a)\r", b"noaddr (mod)"]


def Pick(rng, items):
    return items[rng.randrange(len(items))]


def Space(rng):
    return Pick(rng, [b" ", b" ", b"  ", b"\t", b"   "])


def HeaderLine(rng, plain=False):
    """A sample's first line: "comm pid/tid [cpu] time: period event:" in many shapes."""
    comm = b"fuzz" if plain else Pick(rng, COMMS)
    pid = Pick(rng, [b"123", b"0", b"4567", b"99999"])
    tid = Pick(rng, [b"123", b"0", b"890", b"4567"])
    ids = Pick(rng, [pid, pid + b"/" + tid, pid + b"/" + tid, pid + b"/", b"0/0"])
    parts = [comm, ids]
    if rng.random() < 0.4:
        parts.append(Pick(rng, [b"[000]", b"[12]", b"[1]"]))
    if plain or rng.random() < 0.9:
        parts.append(Pick(rng, [b"12345.678901:", b"1.0:", b"5:"]))
    period = b"" if plain else Pick(rng, PERIODS)
    if period:
        parts.append(period)
    event = b"cycles:" if plain else Pick(rng, EVENTS)
    line = parts[0]
    for p in parts[1:]:
        line += Space(rng) + p
    line += Space(rng) + event
    if not plain and rng.random() < 0.25:
        line += Pick(rng, TRACE_TAILS)
    if not plain and rng.random() < 0.05:
        line += b"\r"
    return line


def FrameLine(rng, srcline):
    lead = Pick(rng, [b"\t    ", b"\t", b"        ", b"", b" ", b"\t\t"])
    sym = Pick(rng, SYMS)
    if rng.random() < 0.3:
        sym += b"+0x" + Pick(rng, [b"1f", b"1F", b"abc", b"0", b"DEAD"])
    mod = Pick(rng, MODS)
    line = lead + Pick(rng, ADDRS) + Space(rng) + sym + (b" " + mod if mod else b"")
    if rng.random() < 0.03:
        line += b"\r"
    lines = [line]
    if srcline and rng.random() < 0.8:
        lines.append(Pick(rng, SRCLINES))
    return lines


def Snippet(rng, srcline):
    """One sample (header, frames, boundary) or a few odd lines."""
    if rng.random() < 0.15:
        return [Pick(rng, ODD_LINES) for _ in range(rng.randint(1, 3))]
    lines = [HeaderLine(rng)]
    for _ in range(rng.randint(0, 7)):
        lines += FrameLine(rng, srcline)
    r = rng.random()
    if r < 0.85:
        lines.append(b"")
    elif r < 0.93:
        lines.append(Pick(rng, [b" ", b"\t", b"\r", b"  "]))
    return lines


def Generate(rng, snippets):
    """A transcript as a list of snippets (each a list of lines without newlines)."""
    srcline = rng.random() < 0.3
    first = [b"# ========", b"# captured on: fuzz"] if rng.random() < 0.3 else []
    first += [HeaderLine(rng, plain=True)] + FrameLine(rng, srcline) + [b""]
    out = [first]
    for _ in range(snippets):
        out.append(Snippet(rng, srcline))
    return out


def Render(snippets, final_newline):
    lines = [line for s in snippets for line in s]
    text = b"\n".join(lines)
    if final_newline and lines:
        text += b"\n"
    return text


class Runner:
    def __init__(self, flamefold, perl_script, tmp):
        self.flamefold = flamefold
        self.perl_script = perl_script
        self.tmp = tmp
        self.count = 0

    def Write(self, parts):
        """Writes each part to its own file; returns the paths."""
        paths = []
        for i, data in enumerate(parts):
            self.count += 1
            path = os.path.join(self.tmp, "in%d-%d.txt" % (self.count, i))
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
        return paths

    def Outputs(self, parts, opts, jobs):
        paths = self.Write(parts)
        # Both at once: each is mostly process start-up on these small inputs.
        perl_proc = subprocess.Popen(["perl", self.perl_script] + opts + paths,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ours = subprocess.run([self.flamefold, "--jobs", str(jobs)] + opts + paths,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        perl = perl_proc.communicate()[0]
        for p in paths:
            os.unlink(p)
        return perl, ours.stdout, ours.returncode, ours.stderr

    def Differs(self, parts, opts, jobs):
        """True when the outputs differ, or flamefold fails on an input that gives Perl output
        (failing is allowed, by design, when Perl finds no sample either: flamefold then says
        that it found none, with exit status 1)."""
        perl, ours, status, _ = self.Outputs(parts, opts, jobs)
        return perl != ours or (status != 0 and perl != b"")


def RenderLines(lines, final_newline):
    text = b"\n".join(lines)
    if final_newline and lines:
        text += b"\n"
    return text


def RenderParts(lines, final_newline, drop_newline):
    """The input files for a list of lines; None in the list marks where a second file begins.
    The first file may lose its final newline (its last line then ends at the end of the file,
    and `<>` still reads it as a line)."""
    if None not in lines:
        return [RenderLines(lines, final_newline)]
    cut = lines.index(None)
    first = RenderLines(lines[:cut], not drop_newline)
    return [first, RenderLines(lines[cut + 1:], final_newline)]


def Split(snippets, final_newline, cut, drop_newline):
    """Renders the transcript as two files cut before snippet `cut`."""
    lines = [line for s in snippets[:cut] for line in s] + [None] + \
        [line for s in snippets[cut:] for line in s]
    return RenderParts(lines, final_newline, drop_newline)


def Reduce(items, bad):
    """Drops chunks of items (halves, quarters, ... single items) while bad(rest) holds."""
    chunk = max(1, len(items) // 2)
    while True:
        i = 0
        while i < len(items):
            trial = items[:i] + items[i + chunk:]
            if trial and bad(trial):
                items = trial
            else:
                i += chunk
        if chunk == 1:
            return items
        chunk = max(1, chunk // 2)


def Shrink(runner, snippets, cut, final_newline, drop_newline, opts, jobs):
    """Removes snippets, then lines, while the outputs still differ; `cut` is the snippet before
    which a second input file begins (None: one file). Returns the input files."""
    items = snippets if cut is None else snippets[:cut] + [[None]] + snippets[cut:]

    def Bad(chunks, nl=None, drop=None):
        lines = [line for c in chunks for line in c]
        if cut is not None and None not in lines:
            return False
        parts = RenderParts(lines, final_newline if nl is None else nl,
                            drop_newline if drop is None else drop)
        return runner.Differs(parts, opts, jobs)

    if not final_newline and Bad(items, nl=True):
        final_newline = True
    if drop_newline and Bad(items, drop=False):
        drop_newline = False
    items = Reduce(items, Bad)
    lines = Reduce([[line] for c in items for line in c], Bad)
    return RenderParts([c[0] for c in lines], final_newline, drop_newline)


def Report(runner, minimal, opts, jobs):
    perl, ours, status, err = runner.Outputs(minimal, opts, jobs)
    print("DIFFERENCE with options %s --jobs %d" % (" ".join(opts) or "(none)", jobs))
    if len(minimal) == 1:
        print("  minimal input: %r" % minimal[0])
    else:
        print("  minimal input, as %d files: %r" % (len(minimal), minimal))
    print("  stackcollapse-perf.pl: %r" % perl[:600])
    print("  flamefold:             %r" % ours[:600])
    if status != 0:
        print("  flamefold exit status %d, stderr %r" % (status, err[:300]))


def Cases(args):
    """The generated transcripts, in order: (snippets, parts, cut or None, final_newline,
    drop_newline, jobs) for each file."""
    rng = random.Random(args.seed)
    for n in range(args.files):
        snippets = Generate(rng, args.snippets)
        final_newline = rng.random() < 0.8
        two_files = rng.random() < 0.2
        cut = rng.randint(1, len(snippets) - 1)
        drop_newline = rng.random() < 0.5
        jobs = 1 + n % 3
        if two_files:
            parts = Split(snippets, final_newline, cut, drop_newline)
        else:
            parts = [Render(snippets, final_newline)]
            cut, drop_newline = None, False
        yield snippets, parts, cut, final_newline, drop_newline, jobs


def Live(args):
    """Compares with the Perl script run now; shrinks and reports each difference."""
    start = time.monotonic()
    comparisons = 0
    snippet_total = 0
    reports = 0
    with tempfile.TemporaryDirectory(prefix="fold-vs-perl.") as tmp:
        runner = Runner(args.flamefold, args.perl_script, tmp)
        for n, (snippets, parts, cut, final_newline, drop_newline, jobs) in enumerate(Cases(args)):
            snippet_total += len(snippets)
            for opts in OPTION_SETS:
                if time.monotonic() - start > args.time_limit:
                    print("fold-vs-perl: time limit reached after %d files" % n)
                    break
                comparisons += 1
                if not runner.Differs(parts, opts, jobs):
                    continue
                reports += 1
                minimal = Shrink(runner, snippets, cut, final_newline, drop_newline, opts, jobs)
                Report(runner, minimal, opts, jobs)
                if reports >= args.max_reports:
                    break
            else:
                continue
            break
    print("fold-vs-perl: %d comparisons over %d snippets (seed %d), %d different, %.1f s"
          % (comparisons, snippet_total, args.seed, reports, time.monotonic() - start))
    return 1 if reports else 0


def AddMember(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0
    tar.addfile(info, io.BytesIO(data))


def Bless(args):
    """Writes every generated input and the Perl script's output for each option set to the
    archive args.bless, with manifest.json saying which is which (and the --jobs to use)."""
    manifest = {"seed": args.seed, "snippets": args.snippets, "cases": []}
    # No name or time in the gzip header, and mtime 0 in the tar one: blessing the same outputs
    # twice gives the same bytes.
    with tempfile.TemporaryDirectory(prefix="fold-vs-perl.") as tmp, \
            open(args.bless, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as tar:
        runner = Runner(args.flamefold, args.perl_script, tmp)
        for n, (_, parts, _, _, _, jobs) in enumerate(Cases(args)):
            files = ["%02d-%d.txt" % (n, i) for i in range(len(parts))]
            for name, data in zip(files, parts):
                AddMember(tar, name, data)
            outputs = []
            for k, opts in enumerate(OPTION_SETS):
                perl = runner.Outputs(parts, opts, jobs)[0]
                outputs.append({"opts": opts, "file": "%02d.%d.perl" % (n, k)})
                AddMember(tar, outputs[-1]["file"], perl)
            manifest["cases"].append({"files": files, "jobs": jobs, "outputs": outputs})
        AddMember(tar, "manifest.json", json.dumps(manifest, indent=1).encode())
    print("fold-vs-perl: wrote %s (%d files, seed %d)" % (args.bless, args.files, args.seed))
    return 0


def Stored(args):
    """Compares flamefold with the Perl script's outputs kept in args.expected; prints the first
    differing line of each difference (the live mode shrinks them; it needs the Perl script)."""
    start = time.monotonic()
    comparisons = 0
    reports = 0
    with tempfile.TemporaryDirectory(prefix="fold-vs-perl.") as tmp, \
            tarfile.open(args.expected, "r:gz") as tar:
        read = lambda name: tar.extractfile(name).read()
        manifest = json.loads(read("manifest.json"))
        for case in manifest["cases"]:
            paths = []
            for name in case["files"]:
                paths.append(os.path.join(tmp, name))
                with open(paths[-1], "wb") as f:
                    f.write(read(name))
            for out in case["outputs"]:
                comparisons += 1
                perl = read(out["file"])
                ours = subprocess.run([args.flamefold, "--jobs", str(case["jobs"])] + out["opts"] +
                                      paths, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      check=False)
                # flamefold may fail, by design, only where Perl found no sample either.
                if ours.stdout == perl and (ours.returncode == 0 or perl == b""):
                    continue
                reports += 1
                a, b = perl.split(b"\n"), ours.stdout.split(b"\n")
                line = next((i for i in range(max(len(a), len(b)))
                             if i >= len(a) or i >= len(b) or a[i] != b[i]), 0)
                print("DIFFERENCE on %s with options %s --jobs %d (exit status %d), output line %d:"
                      % (" + ".join(case["files"]), " ".join(out["opts"]) or "(none)",
                         case["jobs"], ours.returncode, line + 1))
                print("  stackcollapse-perf.pl: %r" % (a[line] if line < len(a) else b"(end)"))
                print("  flamefold:             %r" % (b[line] if line < len(b) else b"(end)"))
                if ours.returncode != 0:
                    print("  flamefold stderr %r" % ours.stderr[:300])
    print("fold-vs-perl: %d comparisons with stored outputs (%s, seed %d), %d different, %.1f s"
          % (comparisons, os.path.basename(args.expected), manifest["seed"], reports,
             time.monotonic() - start))
    if comparisons == 0:
        print("fold-vs-perl: error: %s holds no case" % args.expected)
        return 1
    return 1 if reports else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flamefold", required=True)
    ap.add_argument("--perl-script")
    ap.add_argument("--bless", metavar="ARCHIVE")
    ap.add_argument("--expected", metavar="ARCHIVE")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--files", type=int, default=25)
    ap.add_argument("--snippets", type=int, default=120)
    ap.add_argument("--time-limit", type=float, default=50.0)
    ap.add_argument("--max-reports", type=int, default=3)
    args = ap.parse_args()
    if args.expected and not (args.perl_script or args.bless):
        return Stored(args)
    if args.perl_script and not args.expected:
        return Bless(args) if args.bless else Live(args)
    ap.error("give --perl-script [--bless ARCHIVE], or --expected ARCHIVE")


if __name__ == "__main__":
    sys.exit(main())
