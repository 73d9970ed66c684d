// SampleFrames: a sample's frames as perf script shows them, in the maps
// of its thread (ThreadMaps over a JIT map and a kallsyms: JitDir): the
// call chain across kernel and user contexts, a guest context dropping it,
// perf's 127 frames, the one frame of a sample without a chain.
#include "perfdata/sample_frames.h"

#include <doctest/doctest.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#include <string>
#include <vector>

#include "jit_dir.h"

namespace flamefold {
namespace {

using testing::JitDir;

constexpr uint64_t kKernel = static_cast<uint64_t>(-128);
constexpr uint64_t kUser = static_cast<uint64_t>(-512);
constexpr uint64_t kGuest = static_cast<uint64_t>(-2048);
constexpr uint8_t kUserMode = PERF_RECORD_MISC_USER;

// Thread 42 "java" with its JIT map at 0x1000 and the kernel's map, its
// samples' frames named as perf script prints them.
struct Replayed {
  explicit Replayed(const SymbolOptions& o) : symbols(o) {
    threads.OnComm({42, 42, "java"});
    PerfMmap jit{42, 42, 0x1000, 0x1000, 0};
    jit.prot = PROT_EXEC;
    jit.filename = "//anon";
    threads.OnMmap(jit, kUserMode);
    PerfMmap kernel{UINT32_MAX, UINT32_MAX, 0xffffffff81000000, 0x1000,
                    0xffffffff81000000};
    kernel.filename = "[kernel.kallsyms]_text";
    threads.OnMmap(kernel, PERF_RECORD_MISC_KERNEL);
  }
  // The texts of the frames of a sample with `chain` (or, with no call
  // chain in `a`, at `ip` in `cpumode`).
  std::vector<std::string> Frames(const PerfAttr& a,
                                  std::vector<uint64_t> chain,
                                  uint64_t ip = 0,
                                  uint8_t cpumode = kUserMode) {
    PerfSample s;
    s.callchain = std::move(chain);
    s.ip = ip;
    held.Clear();
    held.Begin(a.sample_type & PERF_SAMPLE_CALLCHAIN);
    frames.Hold(threads.FindNew(42, 42), a, s, cpumode, &held);
    std::vector<std::string> texts;
    HeldSample h = held.at(0);
    for (size_t i = 0; i < h.frame_count; ++i) {
      REQUIRE(h.frames[i].kind == HeldFrame::Kind::kNamed);
      texts.emplace_back(h.frames[i].named->made_text);
    }
    return texts;
  }

  SymbolResolver symbols;
  ThreadMaps threads{&symbols};
  PerfDataStats stats;
  SampleFrames frames{&symbols, &threads, FrameResolver::Style(), &stats};
  HeldSamples held;
};

PerfAttr WithChain() {
  PerfAttr a;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
  return a;
}

using Texts = std::vector<std::string>;

TEST_CASE("the chain, callee first, in the kernel's and the thread's maps") {
  JitDir dir;
  Replayed r(dir.Options());
  CHECK(r.Frames(WithChain(), {kKernel, 0xffffffff81000110, kUser, 0x1010,
                               0x1200, 0x9999}) ==
        Texts{"ffffffff81000110 do_work+0x10 ([kernel.kallsyms])",
              "            1010 jit_leaf+0x10 (/tmp/perf-42.map)",
              "            1200 [unknown] (/tmp/perf-42.map)",
              "            9999 [unknown] ([unknown])"});
  CHECK(!r.frames.nul());
}

TEST_CASE("a guest context drops the whole chain") {
  JitDir dir;
  Replayed r(dir.Options());
  CHECK(r.Frames(WithChain(), {kGuest, 0x1010}) == Texts{});
  CHECK(r.Frames(WithChain(), {kUser, 0x1010, kGuest, 0x1110}) == Texts{});
  CHECK(r.Frames(WithChain(), {kUser, 0x1110}).size() == 1);
}

TEST_CASE("at most perf script's 127 frames, markers not counted") {
  JitDir dir;
  Replayed r(dir.Options());
  std::vector<uint64_t> chain = {kUser};
  for (int i = 0; i < 200; ++i) {
    chain.push_back(0x1010);
    if (i % 10 == 0) chain.push_back(kUser);
  }
  CHECK(r.Frames(WithChain(), chain).size() == 127);
}

TEST_CASE("without a call chain, the one frame at the sample's address") {
  JitDir dir;
  Replayed r(dir.Options());
  PerfAttr plain;
  plain.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
  CHECK(r.Frames(plain, {kUser, 0x1010}, 0x1110) ==
        Texts{"            1110 LJava/Thing;::run+0x10 (/tmp/perf-42.map)"});
  CHECK(r.Frames(plain, {}, 0xffffffff81000310, PERF_RECORD_MISC_KERNEL) ==
        Texts{"ffffffff81000310 entry+0x10 ([kernel.kallsyms])"});
}

TEST_CASE("--call-graph dwarf without a known arch: counted, chain only") {
  JitDir dir;
  Replayed r(dir.Options());
  PerfAttr dwarf = WithChain();
  dwarf.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  r.frames.SetArch(nullptr);
  CHECK(r.Frames(dwarf, {kUser, 0x1010}).size() == 1);
  CHECK(r.Frames(WithChain(), {kUser, 0x1010}).size() == 1);
  CHECK(r.stats.dwarf_chains == 1);
  CHECK(r.stats.unwound == 0);
}

TEST_CASE("a frame whose text holds a NUL byte is told for its sample") {
  JitDir dir;
  Replayed r(dir.Options());
  PerfMmap odd{42, 42, 0x5000, 0x1000, 0};
  odd.prot = PROT_EXEC;
  odd.filename = std::string("/nonexistent/a\0b.so", 19);
  r.threads.OnMmap(odd, kUserMode);
  r.Frames(WithChain(), {kUser, 0x1010, 0x5010});
  CHECK(r.frames.nul());
  r.Frames(WithChain(), {kUser, 0x1010});
  CHECK(!r.frames.nul());
}

}  // namespace
}  // namespace flamefold
