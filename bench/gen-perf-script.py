#!/usr/bin/env python3
"""Writes a synthetic but realistic `perf script` transcript for benchmarking flamefold.

The same arguments always give the same bytes (fixed seed). The transcript looks like
`perf record -g` of a busy machine printed with
`perf script -F comm,pid,tid,cpu,time,period,event,ip,sym,dso`:

    mysqld  2201/2240  [001]  1234.567890:     812345 cycles:
    	ffffffff81a0b2c4 copy_user_generic_string+0x14 ([kernel.kallsyms])
    	    55d4c1e2a0f0 Item_func::val_int+0x40 (/usr/sbin/mysqld)
    	    7f3a1c02a1ca __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)

- a few processes (comm, pid, threads), one of them with a space in its comm, and kernel threads;
- each process has its own call graph; a stack is a random walk down it, 5 to 60 frames deep,
  and about a third of the stacks end in the kernel (a syscall or interrupt path);
- `--stacks` distinct stacks (default 100,000); samples pick them with a skewed (Zipf-like)
  distribution, the leaf frame's offset varies from sample to sample, periods vary.

`--shape cxx-service` writes instead what a profile of large C++ services looks like: three
services with thousands of functions each, names of 60 to 400 bytes full of templates, with
`(anonymous namespace)` inside template arguments, lambdas, `operator()`, argument lists and
return types (which stackcollapse-perf.pl cuts), `[clone .isra.0]` suffixes and `+0x` offsets;
stacks 10 to 40 frames deep, a third of them ending in the kernel, drawn evenly from 250,000, so
that a 200 MB transcript folds to about 90,000 distinct stacks: the shape of a fleet of C++ services.

`--shape distinct-names` writes the hardest shape for a cache of lines: one process whose
stacks are 3 shared root frames and 10 to 30 frames drawn at random from 400,000 distinct
functions, 150,000 such stacks drawn evenly, so that nearly every sample is a stack of its own
and a 200 MB transcript holds about 390,000 distinct names, each line seen a few times only.

`--samples N --seconds S` writes N samples spread evenly over about S seconds instead of
--size-mb's bytes (the times of a recording of that length, for flamescope's heat map).

Usage: gen-perf-script.py --size-mb 200 [--shape mixed|cxx-service|distinct-names]
                          [--stacks 100000] [--samples N --seconds S]
                          [--seed 1] [-o FILE]
"""

import argparse
import bisect
import random
import sys

PROCESSES = [
    # comm, pid, thread count, binary, share of samples
    (b"mysqld", 2201, 24, b"/usr/sbin/mysqld", 30),
    (b"java", 3307, 40, b"/usr/lib/jvm/java-17/lib/server/libjvm.so", 25),
    (b"V8 WorkerThread", 4410, 4, b"/usr/bin/node", 12),
    (b"nginx", 1502, 4, b"/usr/sbin/nginx", 10),
    (b"postgres", 5120, 8, b"/usr/lib/postgresql/15/bin/postgres", 10),
    (b"gzip", 6610, 1, b"/usr/bin/gzip", 5),
    (b"kworker/u8:2", 211, 1, None, 4),
    (b"swapper", 0, 1, None, 4),
]
LIBS = [b"/usr/lib/x86_64-linux-gnu/libc.so.6", b"/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
        b"/usr/lib/x86_64-linux-gnu/libpthread.so.0", b"/usr/lib/x86_64-linux-gnu/libz.so.1.2.13"]
KERNEL = b"[kernel.kallsyms]"
SYSCALL_ENTRY = [b"entry_SYSCALL_64_after_hwframe", b"do_syscall_64"]
IRQ_ENTRY = [b"asm_sysvec_apic_timer_interrupt", b"sysvec_apic_timer_interrupt",
             b"__sysvec_apic_timer_interrupt", b"hrtimer_interrupt"]
KERNEL_WORDS = [b"tcp", b"ext4", b"vfs", b"mm", b"sched", b"blk", b"irq", b"sock", b"page", b"skb",
                b"futex", b"epoll", b"rcu", b"xfs", b"net", b"copy", b"lock", b"queue", b"timer"]
KERNEL_VERBS = [b"read", b"write", b"alloc", b"free", b"wake", b"poll", b"send", b"recv", b"map",
                b"flush", b"submit", b"complete", b"lookup", b"insert", b"update", b"wait"]
CXX_NAMESPACES = [b"std", b"boost::asio", b"app", b"app::detail", b"db::storage", b"net::http",
                  b"(anonymous namespace)"]
CXX_CLASSES = [b"Handler", b"Channel", b"Parser", b"Buffer", b"Index", b"Cursor", b"Executor",
               b"Table", b"Row", b"Allocator", b"Queue", b"Worker", b"Codec", b"Planner"]
CXX_METHODS = [b"run", b"process", b"operator()", b"read", b"write", b"next", b"flush", b"lookup",
               b"insert", b"dispatch", b"encode", b"decode", b"visit", b"apply", b"step"]
TEMPLATE_ARGS = [b"", b"", b"", b"<int>", b"<std::string>", b"<char, 16ul>",
                 b"<std::vector<int, std::allocator<int> > >"]
JAVA_PACKAGES = [b"org/apache/kafka", b"io/netty/channel", b"java/util/concurrent", b"com/example/app",
                 b"java/lang", b"sun/nio/ch"]


class Function:
    __slots__ = ("name", "dso", "addr", "callees")

    def __init__(self, name, dso, addr):
        self.name = name
        self.dso = dso
        self.addr = addr
        self.callees = []


SERVICES = [
    # comm, pid, thread count, binary, share of samples
    (b"search_server", 7101, 48, b"/srv/search/bin/search_server", 45),
    (b"ad_ranker", 7340, 32, b"/srv/ads/bin/ad_ranker", 30),
    (b"edge_proxy", 6020, 8, b"/usr/local/bin/edge_proxy", 15),
    (b"kworker/u8:2", 211, 1, None, 5),
    (b"swapper", 0, 1, None, 5),
]
SERVICE_NAMESPACES = [b"search", b"search::index", b"search::query::detail", b"ads::ranking",
                      b"ads::features", b"proxy::http2", b"folly", b"absl::lts_20230802",
                      b"grpc_core", b"(anonymous namespace)", b"std"]
SERVICE_CLASSES = [b"PostingListIterator", b"QueryPlanner", b"ScoringContext", b"FeatureExtractor",
                   b"ConnectionManager", b"RequestHandler", b"ShardRouter", b"ArenaAllocator",
                   b"FlatHashMap", b"CordReader", b"ThreadPoolExecutor", b"SpanBuffer"]
SERVICE_METHODS = [b"advance", b"score", b"operator()", b"operator<", b"evaluate", b"onData",
                   b"dispatch", b"lookup", b"emplace_back", b"find", b"_M_invoke", b"run", b"merge"]
STRING_TYPE = b"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"


def TemplateArg(rng, depth=0):
    """One C++ template argument, nested at most twice."""
    r = rng.random()
    if depth >= 2 or r < 0.25:
        return rng.choice([b"int", b"unsigned long", b"double", b"char", b"bool", STRING_TYPE,
                           b"(anonymous namespace)::DocScorer", b"(anonymous namespace)::Tag"])
    if r < 0.45:
        return b"std::shared_ptr<%s::%s>" % (rng.choice(SERVICE_NAMESPACES),
                                             rng.choice(SERVICE_CLASSES))
    if r < 0.6:
        t = TemplateArg(rng, depth + 1)
        return b"std::vector<%s, std::allocator<%s> >" % (t, t)
    if r < 0.7:
        return b"std::unique_ptr<%s, std::default_delete<%s> >" % ((TemplateArg(rng, depth + 1),) * 2)
    if r < 0.85:
        return b"%s::%s<%s>" % (rng.choice(SERVICE_NAMESPACES), rng.choice(SERVICE_CLASSES),
                                TemplateArg(rng, depth + 1))
    return b"%s::%s(%s)::{lambda(auto:1&&)#%d}" % (
        rng.choice(SERVICE_NAMESPACES), rng.choice(SERVICE_METHODS), TemplateArg(rng, 2),
        rng.randint(1, 3))


def ServiceName(rng, i):
    """A long C++ symbol as perf script prints it demangled, unique by the index i."""
    ns = rng.choice(SERVICE_NAMESPACES)
    cls = rng.choice(SERVICE_CLASSES)
    if rng.random() < 0.6:
        cls += b"<%s>" % b", ".join(TemplateArg(rng) for _ in range(rng.randint(1, 2)))
    meth = rng.choice(SERVICE_METHODS)
    name = b"%s::%s::%s" % (ns, cls, meth)
    if meth.startswith(b"operator"):
        name += b"_%d" % i if rng.random() < 0.5 else b""
        tag = b"<%d>" % i
    else:
        tag = b"_%d" % i
    name += tag
    r = rng.random()
    if r < 0.55:
        name += b"(%s)" % b", ".join(TemplateArg(rng) + rng.choice([b"", b" const&", b"&&", b"*"])
                                     for _ in range(rng.randint(0, 3)))
        if rng.random() < 0.3:
            name += b" const"
    if r < 0.2:
        name = rng.choice([b"void ", b"bool ", b"unsigned long ", STRING_TYPE + b" "]) + name
    if rng.random() < 0.05:
        name += b" [clone .isra.0]"
    return name


def BuildService(rng, comm, binary, base):
    """A C++ service's call graph: a few thousand functions, a deep fan of long names."""
    funcs = []

    def Add(name, dso):
        where = base if dso == binary else 0x7f3a1c000000 + LIBS.index(dso) * 0x1000000
        f = Function(name, dso, where + len(funcs) * 0x180 + rng.randrange(0x40))
        funcs.append(f)
        return f

    start = Add(b"_start", binary)
    libc_main = Add(b"__libc_start_main", LIBS[0])
    thread = Add(b"start_thread", LIBS[0])
    start.callees = [libc_main]
    user = [Add(ServiceName(rng, i), binary) for i in range(rng.randint(3000, 5000))]
    libs = [Add(b"%s_%d" % (rng.choice([b"__memmove_avx_unaligned_erms", b"malloc", b"free",
                                           b"pthread_mutex_lock", b"operator new(unsigned long)",
                                           b"std::_Rb_tree_increment(std::_Rb_tree_node_base*)",
                                           b"__lll_lock_wait"]), i), rng.choice(LIBS))
            for i in range(120)]
    libc_main.callees = user[:4]
    thread.callees = user[4:40]
    for f in user:
        f.callees = rng.sample(user, 6) + rng.sample(libs, 1)
    for f in libs:
        f.callees = rng.sample(libs, 1) if rng.random() < 0.2 else []
    root = Function(b"", binary, 0)
    root.callees = [start, thread, thread, thread]
    return root, funcs


def CxxName(rng, i):
    ns = rng.choice(CXX_NAMESPACES)
    cls = rng.choice(CXX_CLASSES) + rng.choice(TEMPLATE_ARGS)
    meth = rng.choice(CXX_METHODS)
    name = b"%s::%s::%s_%d" % (ns, cls, meth, i)
    if rng.random() < 0.2:
        name += rng.choice([b"(int)", b"(std::string const&)", b"() const"])
    return name


def JavaName(rng, i):
    return b"L%s/%s%d;::%s" % (rng.choice(JAVA_PACKAGES), rng.choice(CXX_CLASSES), i,
                               rng.choice(CXX_METHODS))


def BuildProgram(rng, comm, binary, base):
    """A call graph for one process: roots (_start...), user functions, library functions."""
    funcs = []

    def Add(name, dso):
        where = base if dso == binary else 0x7f3a1c000000 + LIBS.index(dso) * 0x1000000 \
            if dso.startswith(b"/usr/lib/x86") else 0x7f3a40000000
        f = Function(name, dso, where + len(funcs) * 0x140 + rng.randrange(0x40))
        funcs.append(f)
        return f

    start = Add(b"_start", binary)
    libc_main = Add(b"__libc_start_main", LIBS[0])
    call_main = Add(b"__libc_start_call_main", LIBS[0])
    main = Add(b"main", binary)
    start.callees = [libc_main]
    libc_main.callees = [call_main]
    call_main.callees = [main]
    user = []
    for i in range(400):
        if comm == b"java" and i % 2 == 0:
            user.append(Add(JavaName(rng, i), b"/tmp/perf-%d.map" % 3307))
        else:
            user.append(Add(CxxName(rng, i), binary))
    libs = [Add(b"%s_%d" % (rng.choice([b"memcpy", b"malloc", b"pthread_mutex_lock", b"inflate",
                                           b"__GI___libc_write", b"std::string::_M_append", b"free",
                                           b"read"]), i), rng.choice(LIBS))
            for i in range(60)]
    main.callees = user[:8]
    for f in user:
        f.callees = rng.sample(user, 4) + rng.sample(libs, 2)
    for f in libs:
        f.callees = rng.sample(libs, 2) if rng.random() < 0.3 else []
    return start, funcs


def BuildKernel(rng):
    funcs = {}
    base = 0xffffffff81000000

    def Get(name):
        if name not in funcs:
            funcs[name] = Function(name, KERNEL, base + len(funcs) * 0x1a0 + rng.randrange(0x60))
        return funcs[name]

    names = [b"%s_%s_%d" % (rng.choice(KERNEL_WORDS), rng.choice(KERNEL_VERBS), i)
             for i in range(600)]
    body = [Get(n) for n in names]
    for f in body:
        f.callees = rng.sample(body, 5)
    for chain in (SYSCALL_ENTRY, IRQ_ENTRY):
        prev = None
        for n in chain:
            f = Get(n)
            if prev:
                prev.callees = [f]
            prev = f
        prev.callees = body[:40]
    idle = [Get(n) for n in (b"secondary_startup_64", b"start_secondary", b"cpu_startup_entry",
                             b"do_idle", b"default_idle_call", b"default_idle")]
    for a, b in zip(idle, idle[1:]):
        a.callees = [b]
    worker = [Get(n) for n in (b"ret_from_fork", b"kthread", b"worker_thread", b"process_one_work")]
    for a, b in zip(worker, worker[1:]):
        a.callees = [b]
    worker[-1].callees = body[40:80]
    return Get(SYSCALL_ENTRY[0]), Get(IRQ_ENTRY[0]), idle[0], worker[0]


def Render(f, offset):
    return b"\t%16x %s+0x%x (%s)\n" % (f.addr + offset, f.name, offset, f.dso)


def Walk(rng, root, depth):
    path = [root]
    f = root
    while len(path) < depth and f.callees:
        f = rng.choice(f.callees)
        path.append(f)
    return path


def Depth(rng):
    return min(60, 5 + int(rng.expovariate(1 / 14.0)))


def WriteDistinctNames(args, rng):
    binary = b"/srv/app/bin/app"
    pool = [Function(b"ns%d::Class%d::method_%d_with_a_longer_name" % (
                         rng.randrange(1000), rng.randrange(100000), i),
                     binary, 0x55d4c1e00000 + 0x40 * i) for i in range(400000)]
    roots = pool[:50]
    stacks = []
    for _ in range(args.stacks):
        path = [rng.choice(roots) for _ in range(3)]
        path += [rng.choice(pool) for _ in range(rng.randint(10, 30))]
        stacks.append(b"".join(Render(f, 0x1f) for f in reversed(path)))
    t = 3012.000000

    def Sample():
        nonlocal t
        t += rng.random() * args.step
        return b"app %6d/%-6d [%03d] %12.6f: %10d cycles: \n%s\n" % (
            9100, 9100 + rng.randrange(16), rng.randrange(8), t, rng.randint(100000, 3000000),
            rng.choice(stacks))
    return WriteSamples(args, Sample)


def WriteSamples(args, sample):
    """Writes samples made by `sample()` to args.output until args.size_mb are written, or
    args.samples samples."""
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    limit = int(args.size_mb * 1024 * 1024)
    written = 0
    count = 0
    chunk = []
    chunk_bytes = 0
    while (written < limit) if args.samples is None else (count < args.samples):
        count += 1
        s = sample()
        chunk.append(s)
        chunk_bytes += len(s)
        written += len(s)
        if chunk_bytes > 1 << 20:
            out.write(b"".join(chunk))
            chunk = []
            chunk_bytes = 0
    out.write(b"".join(chunk))
    out.flush()
    if out is not sys.stdout.buffer:
        out.close()
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=float, default=200)
    ap.add_argument("--stacks", type=int, default=None,
                    help="distinct stacks to draw samples from (100,000; cxx-service: 250,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shape", choices=["mixed", "cxx-service", "distinct-names"],
                    default="mixed")
    ap.add_argument("--samples", type=int, default=None,
                    help="write this many samples (instead of --size-mb's bytes)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="with --samples: spread them over about this many seconds")
    ap.add_argument("--period", type=int, default=None,
                    help="every sample's period, as a cpu-clock recording at a fixed rate has "
                         "(else a random period 100000..3000000 each, as cycles)")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    # The mean time between samples is half the step.
    args.step = 0.0004
    if args.samples is not None and args.seconds is not None:
        args.step = 2 * args.seconds / args.samples
    rng = random.Random(args.seed)
    if args.stacks is None:
        args.stacks = {"cxx-service": 250000, "distinct-names": 150000}.get(args.shape, 100000)
    if args.shape == "distinct-names":
        return WriteDistinctNames(args, rng)

    syscall, irq, idle, worker = BuildKernel(rng)
    service = args.shape == "cxx-service"
    procs = []
    for i, (comm, pid, threads, binary, share) in enumerate(SERVICES if service else PROCESSES):
        root = funcs = None
        if binary:
            build = BuildService if service else BuildProgram
            root, funcs = build(rng, comm, binary, 0x55d4c1e00000 + i * 0x1000000)
        procs.append((comm, pid, threads, root, share))

    # Distinct stacks, each a tuple (process index, frames root first).
    weights = [p[4] for p in procs]
    seen = set()
    stacks = []
    attempts = 0
    while len(stacks) < args.stacks and attempts < args.stacks * 20:
        attempts += 1
        pi = rng.choices(range(len(procs)), weights)[0]
        comm, pid, threads, root, share = procs[pi]
        depth = rng.randint(10, 40) if service else Depth(rng)
        if root is None:
            path = Walk(rng, idle if pid == 0 else worker, depth)
        else:
            kernel_part = rng.random() < 0.35
            user_depth = max(4, depth - (rng.randint(4, 20) if kernel_part else 0))
            path = Walk(rng, root, user_depth + (1 if service else 0))
            if service:
                path = path[1:]  # the service's root picks main's or a thread's chain
            if kernel_part:
                entry = syscall if rng.random() < 0.8 else irq
                path += Walk(rng, entry, max(3, depth - len(path)))
        key = (pi, tuple(id(f) for f in path))
        if key in seen:
            continue
        seen.add(key)
        # Frame lines leaf first, as perf prints them; the leaf is rendered per sample.
        body = b"".join(Render(f, 0x10 + (f.addr >> 4) % 0x300) for f in reversed(path[:-1]))
        stacks.append((pi, path[-1], body))
    del seen

    # Skewed popularity: stack k has weight 1/(k+50)^0.6, so a few stacks are hot and most of
    # the pool still turns up in a large transcript.
    cumulative = []
    total = 0.0
    for k in range(len(stacks)):
        total += (k + 50) ** -0.6
        cumulative.append(total)

    t = 3012.000000

    def Sample():
        nonlocal t
        if service:  # services spread their time thin: most samples are a stack of their own
            k = rng.randrange(len(stacks))
        else:
            k = bisect.bisect_left(cumulative, rng.random() * total)
        pi, leaf, body = stacks[min(k, len(stacks) - 1)]
        comm, pid, threads, root, share = procs[pi]
        tid = pid + rng.randrange(threads) if pid else 0
        t += rng.random() * args.step
        period = rng.randint(100000, 3000000)
        event = b"cycles"
        if args.period:
            period, event = args.period, b"cpu-clock"
        return b"%s %6d/%-6d [%03d] %12.6f: %10d %s: \n%s%s\n" % (
            comm, pid, tid, rng.randrange(8), t, period, event, Render(leaf, rng.randrange(0x400)),
            body)
    return WriteSamples(args, Sample)


if __name__ == "__main__":
    sys.exit(main())
