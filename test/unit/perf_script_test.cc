// The perf script parser against stackcollapse-perf.pl's rules. Every
// expected string here is what the Perl script printed for the same input.
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <random>

#include "collapse/perf_script.h"
#include "test_util.h"

using flamefold::EventFields;
using flamefold::FrameFields;
using flamefold::MatchEvent;
using flamefold::MatchFrameLine;
using flamefold::PerfScriptOptions;
using flamefold::PerfScriptParser;
using flamefold::PerfScriptStats;
using flamefold::testing::FoldPerfScript;

TEST_CASE("header: comm, pid/tid, period and event") {
  CHECK(FoldPerfScript("java 25607 4794564.109216: 1 cycles:\n\tffff a (b)\n\n") ==
        "java;a 1\n");
  PerfScriptOptions tid;
  tid.include_tid = true;
  CHECK(FoldPerfScript("swapper 0/0 [000] 1.0: 10 cpu-clock:\n"
                       "\tffff f ([kernel.kallsyms])\n\n", tid) ==
        "swapper-?/0;f 10\n");
  PerfScriptOptions pid;
  pid.include_pid = true;
  CHECK(FoldPerfScript("V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:u:\n"
                       "\t1 f (m)\n\n", pid) == "V8_WorkerThread-24636;f 100\n");
}

TEST_CASE("--weight reads a tracepoint's field after the event") {
  using flamefold::MatchTraceField;
  const std::string kmalloc =
      "cat 26580 [001] 21180.479465: kmem:kmalloc: call_site=perf_event_mmap+0x16b "
      "ptr=0xffff8881201ce000 bytes_req=4096 bytes_alloc=4000 gfp_flags=GFP_KERNEL "
      "node=-1 accounted=false";
  CHECK(MatchTraceField(kmalloc, "bytes_alloc") == 4000);
  CHECK(MatchTraceField(kmalloc, "bytes_req") == 4096);
  CHECK(MatchTraceField(kmalloc, "ptr") == 0xffff8881201ce000);
  CHECK_FALSE(MatchTraceField(kmalloc, "gfp_flags"));  // a name
  CHECK_FALSE(MatchTraceField(kmalloc, "node"));       // negative
  CHECK_FALSE(MatchTraceField(kmalloc, "alloc"));      // inside a name
  CHECK_FALSE(MatchTraceField(kmalloc, "len"));
  CHECK(MatchTraceField("alloc 32219 [000] 21255.404833: probe_libc:malloc: "
                        "(7f17b822e930) bytes=24", "bytes") == 24);
  PerfScriptOptions weight;
  weight.weight_field = "bytes";
  PerfScriptStats stats;
  CHECK(FoldPerfScript("ab 1 [000] 1.0: probe_libc:malloc: (7f) bytes=24\n"
                       "\t1 malloc (libc)\n\t2 f (app)\n\n"
                       "ab 1 [000] 2.0: probe_libc:malloc: (7f) bytes=0x100\n"
                       "\t1 malloc (libc)\n\t2 f (app)\n\n"
                       "ab 1 [000] 3.0: 1 cycles:\n\t2 f (app)\n\n",
                       weight, &stats) == "ab;f;malloc 280\n");
  CHECK(stats.samples_unweighed == 1);
}

TEST_CASE("a one-character comm is misparsed as Perl does, and counted") {
  PerfScriptStats stats;
  CHECK(FoldPerfScript("a 1 1.0: 3 cycles:\n\tffff f (m)\n\n", {}, &stats) ==
        "a_1_1.0:;f 3\n");
  CHECK(stats.one_char_comm == 1);
  PerfScriptOptions modern;
  modern.modern = true;
  CHECK(FoldPerfScript("a 1 1.0: 3 cycles:\n\tffff f (m)\n\n", modern) ==
        "a;f 3\n");
}

TEST_CASE("C++ names: cut at the first paren, (-frames dropped") {
  const char* in =
      "p 1/2 1.0: 10 cycles:\n"
      "\tffff std::function<void (int)>::operator()(int) (/x)\n"
      "\tffff (anonymous namespace)::g(int) (/x)\n"
      "\tffff ns::(anonymous namespace)::h(int) (/x)\n"
      "\tffff abc (x)\n\n";
  PerfScriptStats stats;
  CHECK(FoldPerfScript(in, {}, &stats) ==
        "p_1/2_1.0:;abc;ns::(anonymous namespace)::h;std::function<void  10\n");
  CHECK(stats.paren_frames == 1);
  CHECK(stats.cut_names == 1);
  PerfScriptOptions modern;
  modern.modern = true;
  CHECK(FoldPerfScript(in, modern) ==
        "p;abc;ns::(anonymous namespace)::h;(anonymous namespace)::g;"
        "std::function<void (int)>::operator() 10\n");
}

// Perl's tr/;/:/ and s/["']//g on every frame name: ';' anywhere, runs of
// them, quotes of both kinds anywhere, and a name with none.
TEST_CASE("';' becomes ':' and quotes go, wherever they are in a name") {
  CHECK(FoldPerfScript("prog 1234 [000] 1.000000: 1 cycles:\n"
                       "\t    7f0000001000 a;b;c\"x'y+0x10 (/usr/lib/libq.so)\n"
                       "\t    7f0000002000 quote\"d''+0x1 (/usr/lib/libq.so)\n"
                       "\t    7f0000003000 plain;;+0x2 (/usr/lib/libq.so)\n"
                       "\t    7f0000004000 it's+0x4 (/usr/lib/libq.so)\n"
                       "\t    7f0000005000 main+0x3 (/usr/bin/prog)\n\n") ==
        "prog;main;its;plain::;quoted;a:b:cxy 1\n");
}

TEST_CASE("white-space-only line merges samples; --modern ends the sample") {
  const char* in = "pp 1/2 1.0: 10 cycles:\n\tffff f (m)\n \n"
                   "pp 1/2 1.0: 5 cycles:\n\tffff g (m)\n\n";
  PerfScriptStats stats;
  CHECK(FoldPerfScript(in, {}, &stats) == "pp;g;f 5\n");
  CHECK(stats.blank_with_spaces == 1);
  CHECK(stats.unrecognized_lines == 1);
  PerfScriptOptions modern;
  modern.modern = true;
  CHECK(FoldPerfScript(in, modern) == "pp;f 10\npp;g 5\n");
}

TEST_CASE("the first event is kept; later events are skipped and counted") {
  PerfScriptStats stats;
  CHECK(FoldPerfScript("pp 1/2 1.0: 10 cycles:\n\tffff f (m)\n\n"
                       "pp 1/2 1.0: 5 instructions:\n\tffff g (m)\n\n",
                       {}, &stats) == "pp;f 10\n");
  CHECK(stats.samples_other_event == 1);
  CHECK(stats.other_event == "instructions");
  PerfScriptOptions ev;
  ev.event_filter = "instructions";
  CHECK(FoldPerfScript("pp 1/2 1.0: 10 cycles:\n\tffff f (m)\n\n"
                       "pp 1/2 1.0: 5 instructions:\n\tffff g (m)\n\n",
                       ev) == "pp;g 5\n");
}

TEST_CASE("unknown symbols, --addrs, offsets") {
  PerfScriptOptions addrs;
  addrs.include_addrs = true;
  PerfScriptStats stats;
  CHECK(FoldPerfScript("pp 1/2 1.0: 10 cycles:\n\tffff f+0xAB (m)\n"
                       "\tffff [unknown] (/lib/x.so)\n\tffff [unknown] ([unknown])\n\n",
                       addrs, &stats) ==
        "pp;[unknown <ffff>];[x.so <ffff>];f+0xAB 10\n");
  CHECK(stats.upper_hex_offsets == 1);
  CHECK(FoldPerfScript("pp 1/2 1.0: 10 cycles:\n\tffff f+0xab (m)\n\n") ==
        "pp;f 10\n");
}

TEST_CASE("the last sample is dropped without a blank line, kept by --modern") {
  PerfScriptStats stats;
  CHECK(FoldPerfScript("pp 1/2 1.0: 10 cycles:\n\tffff f (m)\n", {}, &stats) == "");
  CHECK(stats.last_sample_dropped == 1);
  PerfScriptOptions modern;
  modern.modern = true;
  CHECK(FoldPerfScript("pp 1/2 1.0: 10 cycles:\n\tffff f (m)\n", modern) ==
        "pp;f 10\n");
}

TEST_CASE("input split into 1-byte reads gives the same output") {
  const char* in = "java 25607 4794564.109216: 1 cycles:\n\tffff a (b)\n\n"
                   "java 25607 4794564.109216: 2 cycles:\n\tffff a (b)\n\n";
  CHECK(FoldPerfScript(in, {}, nullptr, 1) == "java;a 3\n");
}

TEST_CASE("binary input is an error naming the line") {
  CHECK(FoldPerfScript(std::string("pp 1/2 1.0: 10 cycles:\n\tff f\0 (m)\n\n", 36)) ==
        "ERROR: test:2: NUL byte at column 6: binary data, not perf script text");
}

TEST_CASE("frame line grammar follows Perl's backtracking") {
  FrameFields f;
  REQUIRE(MatchFrameLine("\t7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)", &f));
  CHECK(f.pc == "7f722d142778");
  CHECK(f.rawfunc == "Ljava/io/PrintStream;::print");
  CHECK(f.mod == "/tmp/perf-19982.map");
  REQUIRE(MatchFrameLine("abc (x)", &f));  // pc shortened
  CHECK(f.pc == "ab");
  CHECK(f.rawfunc == "c");
  REQUIRE(MatchFrameLine("  4c1e10 [unknown] ([JIT app cache])", &f));
  CHECK(f.mod == "[JIT app cache]");
  CHECK_FALSE(MatchFrameLine("    ", &f));
  CHECK_FALSE(MatchFrameLine("a (x)", &f));
}

TEST_CASE("event grammar") {
  EventFields e;
  REQUIRE(MatchEvent("java 12688 [002] 6544038.708352: 235 cpu-clock:", &e));
  CHECK(e.period == "235");
  CHECK(e.event == "cpu-clock");
  REQUIRE(MatchEvent("x 1 1.000000: sched:sched_switch: ", &e));
  CHECK(e.period == "");
  CHECK(e.event == "sched:sched_switch");
  CHECK_FALSE(MatchEvent("x 1 2.0: 1 kmem:kmalloc: call_site=ffff", &e));
}

TEST_CASE("the sample cache, on or turned off after its trial, never changes the output") {
  // 20,000 distinct samples (the cache hits too rarely and is dropped),
  // then repeats; and a repetitive profile where the cache stays on.
  for (int distinct : {20000, 50}) {
    std::string in;
    std::map<std::string, int> want;
    for (int i = 0; i < 30000; ++i) {
      int k = i < 20000 ? i % distinct : (i * 7) % distinct;
      in += "pp 1/2 1.0: 1 cycles:\n\tffff leaf" + std::to_string(k) +
            "+0x1 (m)\n\tffff main+0x2 (m)\n\n";
      want["pp;main;leaf" + std::to_string(k)]++;
    }
    std::string expected;
    for (const auto& [stack, n] : want) {
      expected += stack + " " + std::to_string(n) + "\n";
    }
    CHECK(FoldPerfScript(in) == expected);
  }
}

TEST_CASE("a repeated stack line keeps each process's java rule") {
  // A caller line met again is taken whole from the line cache; the frame it
  // gives depends on the process name, so a java and a non-java process
  // reading the same line must each get their own (as Perl prints them).
  const std::string line =
      "\t    7f3a40009678 Lcom/example/Index;::insert+0x70 (/tmp/perf-3307.map)\n";
  std::string in;
  for (int i = 0; i < 3; ++i) {
    in += "java 1/2 1.0: 1 cycles:\n\tffff leaf+0x1 (m)\n" + line + "\n";
    in += "perl 1/2 1.0: 1 cycles:\n\tffff leaf+0x1 (m)\n" + line + "\n";
  }
  CHECK(FoldPerfScript(in) ==
        "java;com/example/Index:::insert;leaf 3\n"
        "perl;Lcom/example/Index:::insert;leaf 3\n");
  // The same line as a leaf and as a caller.
  CHECK(FoldPerfScript("perl 1/2 1.0: 1 cycles:\n" + line + line + "\n" +
                       "perl 1/2 1.0: 1 cycles:\n" + line + line + "\n") ==
        "perl;Lcom/example/Index:::insert;Lcom/example/Index:::insert 2\n");
}

TEST_CASE("line numbers and statistics count the lines taken from the line cache") {
  const std::string sample =
      "pp 1/2 1.0: 1 cycles:\n\tffff leaf+0x1 (m)\n"
      "\t    7f3a40009678 some_function_name+0x70 (/usr/lib/libfoo.so)\n";
  PerfScriptStats stats;
  CHECK(FoldPerfScript(sample + "\n" + sample + "\n" + sample + "\n", {}, &stats) ==
        "pp;some_function_name;leaf 3\n");
  CHECK(stats.lines == 12);
  CHECK(stats.samples == 3);
  CHECK(FoldPerfScript(sample + "\n" + sample + std::string("\tff f\0 (m)\n\n", 12)) ==
        "ERROR: test:8: NUL byte at column 6: binary data, not perf script text");
}

TEST_CASE("process names that share a slot of the comm cache stay apart") {
  // "aaX" and "bbX" (same length, same last byte) and "java1"/"javaX" vs
  // "perl1": each sample must get its own process frame and java rule.
  std::string in;
  for (int i = 0; i < 3; ++i) {
    for (const char* comm : {"aaX", "bbX", "javaX", "perlX", "0 1"}) {
      in += std::string(comm) + " 1/2 1.0: 1 cycles:\n\tffff Lp/C;::m+0x1 (/tmp/perf-1.map)\n\n";
    }
  }
  CHECK(FoldPerfScript(in) ==
        "0_1;Lp/C:::m 3\n"
        "aaX;Lp/C:::m 3\n"
        "bbX;Lp/C:::m 3\n"
        "javaX;p/C:::m 3\n"
        "perlX;Lp/C:::m 3\n");
}

TEST_CASE("the line cache never changes the output: whole buffer vs 1-byte reads") {
  // Read in 1-byte pieces, the reader never holds a whole line ahead, so
  // every line goes the general way; read whole, caller lines come from the
  // line cache. Lines picked to trip it: the same line under java and
  // non-java comms, lines that share their first 32 bytes, lines shorter
  // than the key, dropped '(' frames, upper-case offsets, a white-space-only
  // line, --addrs.
  const std::vector<std::string> lines = {
      "\t    7f3a40009678 Lcom/example/Index;::insert+0x70 (/tmp/perf-3307.map)",
      "\t    7f3a40009678 Lcom/example/Index;::insert+0x70 (/tmp/perf-3308.map)",
      "\t    7f3a40009678 Lcom/example/Index;::insert+0x71 (/tmp/perf-3307.map)",
      "\t    7f3a1d024422 pthread_mutex_lock+0x13e (/usr/lib/libc.so.6)",
      "\t    7f3a1d024422 pthread_mutex_lock+0x13E (/usr/lib/libc.so.6)",
      "\t    7f3a1d024422 (anonymous namespace)::run(int) (/usr/bin/app)",
      "\tffffffff8101767b lock_lookup+0x252 ([kernel.kallsyms])",
      "\tffffffff8101767b lock_lookup+0x252 ([kernel.kallsyms])x",
      "\tffff f (m)",
      "\t    55d4c2e00524 std::function<void (int)>::operator()(int) const+0x1 (/a)",
      "\t    55d4c2e00524 [unknown] (/usr/lib/jvm/java-17/lib/server/libjvm.so)",
      " ",
  };
  const std::vector<std::string> comms = {"java", "javac", "perl", "V8 Worker", "0"};
  std::mt19937 rng(12345);
  std::string in;
  for (int i = 0; i < 3000; ++i) {
    in += comms[rng() % comms.size()] + " 1/" + std::to_string(rng() % 3) +
          " 1.0: " + std::to_string(rng() % 5) + " cycles:\n";
    int depth = 1 + rng() % 8;
    for (int d = 0; d < depth; ++d) in += lines[rng() % lines.size()] + "\n";
    in += "\n";
  }
  for (int variant = 0; variant < 3; ++variant) {
    PerfScriptOptions options;
    options.modern = variant == 1;
    options.include_addrs = variant == 2;
    options.annotate_jit = variant == 2;
    PerfScriptStats whole, bytes;
    std::string a = FoldPerfScript(in, options, &whole);
    std::string b = FoldPerfScript(in, options, &bytes, 1);
    CHECK(a == b);
    CHECK(a.size() > 100);
    CHECK(whole.lines == bytes.lines);
    CHECK(whole.samples == bytes.samples);
    CHECK(whole.paren_frames == bytes.paren_frames);
    CHECK(whole.upper_hex_offsets == bytes.upper_hex_offsets);
    CHECK(whole.blank_with_spaces == bytes.blank_with_spaces);
  }
}

TEST_CASE("frames parsed ahead fold as the general way does, whatever the reads") {
  // Samples whose frames are mostly new (the line cache holds none of
  // them), past the 65,536 frame keys from which FastStackLine parses each
  // next line ahead of its look-up: the first 2,700 samples bring 81,000
  // keys. Then a third of the frames come from a few lines that the line
  // cache soon holds, so that a line parsed ahead is often taken from the
  // cache instead, and the next line FastStackLine sees is another. All
  // lines have one length, so that neither that line nor one the reader's
  // moved buffer brings where a line parsed ahead lay can pass for it by
  // its size. Read 1 byte at a time, the reader never holds a line ahead
  // and every line goes the general way: the reference.
  std::mt19937 rng(2026);
  std::string in;
  auto frame = [&](unsigned ip, unsigned fn, unsigned off, unsigned lib) {
    char line[80];
    std::snprintf(line, sizeof line, "\t    %012x fn%06u+0x%u (/usr/lib/lib%u.so)\n",
                  ip, fn, off, lib);
    in += line;
  };
  unsigned next_fn = 0;
  for (int i = 0; i < 6700; ++i) {
    in += (rng() % 4 ? "app" : "java");
    in += " 1/1 1.0: " + std::to_string(1 + rng() % 3) + " cycles:\n";
    if (i < 2700) {
      for (int d = 0; d < 30; ++d) frame(rng() & 0xffffff, next_fn++, 1, 0);
    } else {
      int depth = 2 + rng() % 12;
      for (int d = 0; d < depth; ++d) {
        if (rng() % 3 == 0) {
          frame(0xabcdef, rng() % 6, 1, 0);
        } else {
          frame(rng() & 0xffffff, rng() % 300000, rng() % 10, rng() % 8);
        }
      }
    }
    in += "\n";
  }
  for (int variant = 0; variant < 2; ++variant) {
    PerfScriptOptions options;
    options.include_addrs = variant == 1;
    PerfScriptStats general;
    const std::string want = FoldPerfScript(in, options, &general, 1);
    CHECK(want.size() > 100000);
    for (size_t chunk : {size_t{61}, size_t{97}, size_t{4093}, SIZE_MAX}) {
      CAPTURE(chunk);
      PerfScriptStats stats;
      CHECK(FoldPerfScript(in, options, &stats, chunk) == want);
      CHECK(stats.lines == general.lines);
      CHECK(stats.samples == general.samples);
    }
  }
}
