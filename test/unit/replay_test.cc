#include "perfdata/replay.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "jit_dir.h"
#include "perf_data_builder.h"
#include "test_inputs.h"
#include "test_util.h"

namespace flamefold {
namespace {

using testing::JitDir;
using testing::PerfDataBuilder;

constexpr uint64_t kKernel = static_cast<uint64_t>(-128);
constexpr uint64_t kUser = static_cast<uint64_t>(-512);
constexpr uint64_t kGuest = static_cast<uint64_t>(-2048);

// A recording folded by the replay into a parser's fold of its own
// (samples by their fields and frames, no text), then finished.
struct ParserFold {
  explicit ParserFold(const PerfScriptOptions& opts)
      : parser(opts, &names, &trie) {}
  bool Run(const std::string& bytes, const SymbolOptions& o) {
    StringSource src(bytes);
    ParserRecordingFold into(&parser, "t.data", 0);
    bool ok = ReplayIntoFold("t.data", &src, o, into.samples(),
                             parser.options(), &stats, &err, fold_thread);
    parser.Finish();
    return ok;
  }
  bool fold_thread = true;  // see PerfDataText::fold_thread
  StringInterner names;
  StackTrie trie{&names};
  PerfScriptParser parser;
  PerfDataStats stats;
  std::string err;
};

std::string Render(const std::string& bytes, const SymbolOptions& o,
                   PerfDataStats* stats = nullptr, PerfDataText style = {}) {
  StringSource src(bytes);
  std::string text, err;
  PerfDataStats s;
  bool ok = RenderPerfData("t.data", &src, o,
                           [&](std::string_view t) {
                             text.append(t);
                             return true;
                           },
                           &s, &err, style);
  if (stats) *stats = s;
  return ok ? text : "ERROR: " + err;
}

// The perf script text the replay renders for a parser with `opts` (its
// headers "comm PID/TID" when PidTidWanted), for reading back.
std::string TextFor(const std::string& bytes, const SymbolOptions& o,
                    const PerfScriptOptions& opts) {
  PerfDataText style;
  style.pid_tid = PidTidWanted(opts);
  std::string text = Render(bytes, o, nullptr, style);
  REQUIRE(text.rfind("ERROR: ", 0) != 0);
  return text;
}

PerfDataBuilder Base() {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  a.name = "cpu-clock:ppp";
  b.AddAttr(a);
  b.Comm(42, 42, "java", 0);
  b.Mmap(42, 0x1000, 0x1000, 0, "//anon", 0);
  // The kernel map: cpumode kernel (misc 1), pid -1.
  b.Mmap(UINT32_MAX, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
         "[kernel.kallsyms]_text", 0, 1);
  return b;
}

TEST_CASE("perf.data samples render as perf script prints them") {
  JitDir dir;
  PerfDataBuilder b = Base();
  b.Sample(42, 43, 1500000000, 250,
           {kKernel, 0xffffffff81000110, 0xffffffff81000310, kUser, 0x1010,
            0x1110, 0x1200, 0x9999});
  std::string text = Render(b.Build(), dir.Options());
  CHECK(text ==
        ":43    43 [000]     1.500000:        250 cpu-clock:ppp: \n"
        "\tffffffff81000110 do_work+0x10 ([kernel.kallsyms])\n"
        "\tffffffff81000310 entry+0x10 ([kernel.kallsyms])\n"
        "\t            1010 jit_leaf+0x10 (/tmp/perf-42.map)\n"
        "\t            1110 LJava/Thing;::run+0x10 (/tmp/perf-42.map)\n"
        "\t            1200 [unknown] (/tmp/perf-42.map)\n"
        "\t            9999 [unknown] ([unknown])\n"
        "\n");
}

TEST_CASE("a thread takes its comm at the time of the sample") {
  JitDir dir;
  PerfDataBuilder b = Base();
  // Written out of order inside one round: perf sorts by time first.
  b.Sample(42, 42, 300, 1, {kUser, 0x1010});
  b.Comm(42, 42, "renamed", 200);
  b.Sample(42, 42, 100, 1, {kUser, 0x1010});
  b.FinishedRound();
  b.Fork(50, 42, 50, 42, 400);
  b.Sample(50, 50, 500, 1, {kUser, 0x1010});
  std::string text = Render(b.Build(), dir.Options());
  CHECK(text.find("java    42 [000]     0.000000:") != std::string::npos);
  size_t first = text.find("java    42");
  size_t second = text.find("renamed    42");
  size_t child = text.find("renamed    50");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  REQUIRE(child != std::string::npos);
  CHECK(first < second);
  CHECK(second < child);
  // The child process inherited the JIT mapping.
  CHECK(text.substr(child).find("jit_leaf+0x10 (/tmp/perf-42.map)") !=
        std::string::npos);
}

TEST_CASE("guest contexts drop the chain; guest samples are skipped") {
  JitDir dir;
  PerfDataBuilder b = Base();
  b.Sample(42, 42, 100, 1, {kGuest, 0x1010});
  b.Sample(42, 42, 200, 1, {kUser, 0x1010}, 5);  // misc 5: guest user
  PerfDataStats stats;
  std::string text = Render(b.Build(), dir.Options(), &stats);
  CHECK(text == "java    42 [000]     0.000000:          1 cpu-clock:ppp: \n\n");
  CHECK(stats.samples == 2);
  CHECK(stats.samples_skipped == 1);
}

// flamereport opens with these facts; each was checked against perf on real
// recordings (test/cli/flamereport), and here on the cases those do not have.
TEST_CASE("the recording's facts: events, times, lost, frames without symbol") {
  JitDir dir;
  PerfDataBuilder b = Base();
  b.Sample(42, 42, 2000, 250, {kKernel, 0xffffffff81000110, kUser, 0x1010,
                               0x1200, 0x9999});
  b.Sample(42, 42, 500, 250, {kUser, 0x9999});
  b.Sample(42, 42, 900, 250, {kGuest, 0x1010});  // dropped: no frame counted
  b.Lost(7, 12, 600);
  b.Lost(7, 3, 700);
  b.LostSamples(9, 800);
  b.LostSamples(100, 850, 1u << 15);  // a BPF filter's: not lost
  PerfDataStats stats;
  std::string text = Render(b.Build(), dir.Options(), &stats);
  REQUIRE(stats.events.size() == 1);
  CHECK(stats.events[0].name == "cpu-clock:ppp");
  CHECK(!stats.events[0].freq);
  CHECK(stats.events[0].rate == 1000);
  CHECK(stats.events[0].samples == 3);
  CHECK(stats.first_time == 500);
  CHECK(stats.last_time == 2000);
  CHECK(stats.lost_records == 15);
  CHECK(stats.lost_chunks == 2);
  CHECK(stats.lost_samples == 9);
  CHECK(stats.lost_samples_recorded);
  CHECK(stats.frames == 5);
  CHECK(stats.frames_no_symbol == 3);  // 0x1200 (JIT map), 0x9999 twice
  using Dsos = std::vector<std::pair<std::string, uint64_t>>;
  CHECK(stats.no_symbol_dsos == Dsos{{"[unknown]", 2}, {"/tmp/perf-42.map", 1}});
}

TEST_CASE("perf.data folds through the perf script parser") {
  JitDir dir;
  PerfDataBuilder b = Base();
  b.Sample(42, 42, 100, 7, {kKernel, 0xffffffff81000110, kUser, 0x1010});
  b.Sample(42, 42, 200, 3, {kKernel, 0xffffffff81000110, kUser, 0x1010});
  PerfScriptOptions opts;
  opts.annotate_jit = true;
  opts.annotate_kernel = true;
  ParserFold fold(opts);
  REQUIRE(fold.Run(b.Build(), dir.Options()));
  CHECK(testing::FoldedText(fold.trie) ==
        "java;jit_leaf_[j];do_work_[k] 10\n");
}

// A recording folded by the replay (headers by their fields, frames by
// line id) and by reading back the perf script text it renders: the two
// must agree, counts and statistics alike.
void CheckReplayReadsAsText(const std::string& bytes, const SymbolOptions& o,
                            const PerfScriptOptions& opts) {
  ParserFold fold(opts);
  bool folded = fold.Run(bytes, o);
  CAPTURE(fold.err);
  REQUIRE(folded);
  std::string text = TextFor(bytes, o, opts);
  PerfScriptStats read_stats;
  CHECK(testing::FoldedText(fold.trie) ==
        testing::FoldPerfScript(text, opts, &read_stats));
  const PerfScriptStats& replay_stats = fold.parser.stats();
  CHECK(replay_stats.lines == read_stats.lines);
  CHECK(replay_stats.samples_other_event == read_stats.samples_other_event);
  CHECK(replay_stats.one_char_comm == read_stats.one_char_comm);
  CHECK(replay_stats.comment_lines == read_stats.comment_lines);
}

TEST_CASE("sample headers taken by their fields read as their text would") {
  JitDir dir;
  // Comms the Perl regex reads otherwise than as the comm: white space
  // before digits, one character, a comment's '#', a tab.
  const std::vector<std::string> comms = {"java", "V8 WorkerThread", "a 12 b",
                                          "x", "#c", "tab\there", "ok"};
  // Events the Perl regex reads as theirs, or not at all.
  for (std::string event : {"cpu-clock:ppp", "my event", ""}) {
    CAPTURE(event);
    PerfDataBuilder b;
    PerfDataBuilder::Attr a;
    a.name = event;
    b.AddAttr(a);
    for (uint32_t i = 0; i < comms.size(); ++i) {
      b.Comm(42 + i, 42 + i, comms[i], 0);
      b.Mmap(42 + i, 0x1000, 0x1000, 0, "//anon", 0);
    }
    b.Mmap(UINT32_MAX, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
           "[kernel.kallsyms]_text", 0, 1);
    for (uint32_t i = 0; i < comms.size(); ++i) {
      b.Sample(42 + i, 42 + i, 100 + i, 7 * i,  // a period of 0 counts 1
               {kKernel, 0xffffffff81000110, kUser, 0x1010});
    }
    b.Sample(UINT32_MAX, UINT32_MAX, 900, 1, {kKernel, 0xffffffff81000110});
    b.Sample(42, 42, 901, UINT64_MAX, {kKernel, 0xffffffff81000110});
    std::string bytes = b.Build();
    PerfScriptOptions opts;
    CheckReplayReadsAsText(bytes, dir.Options(), opts);
    opts.include_pid = true;  // "%5d", read as the pid
    CheckReplayReadsAsText(bytes, dir.Options(), opts);
    opts.include_pid = false;
    opts.modern = true;
    CheckReplayReadsAsText(bytes, dir.Options(), opts);
    opts.include_pid = opts.include_tid = true;  // "%5d/%-5d"
    CheckReplayReadsAsText(bytes, dir.Options(), opts);
  }
}

TEST_CASE("the kernel map stretches over all kernel symbols once loaded") {
  JitDir dir;
  PerfDataBuilder b = Base();  // the kernel map covers 0x1000 bytes
  b.Sample(42, 42, 100, 1, {kKernel, 0xffffffff83000010});
  b.Sample(42, 42, 200, 1, {kKernel, 0xffffffff81000110});
  b.Sample(42, 42, 300, 1, {kKernel, 0xffffffff83000010});
  std::string text = Render(b.Build(), dir.Options());
  size_t first = text.find("ffffffff83000010 [unknown] ([unknown])");
  size_t later = text.find("ffffffff83000010 start_kernel+0x10 ([kernel.kallsyms])");
  CHECK(first != std::string::npos);
  CHECK(later != std::string::npos);
  CHECK(first < later);
}

// Kernel symbols that arrive late, as /proc/kallsyms does: a FIFO in
// `dir` whose writer waits before giving `dir`'s kallsyms.
class SlowKallsyms {
 public:
  explicit SlowKallsyms(const SymbolOptions& o) : fifo_(o.kallsyms + ".fifo") {
    std::ifstream in(o.kallsyms);
    std::ostringstream text;
    text << in.rdbuf();
    REQUIRE(mkfifo(fifo_.c_str(), 0600) == 0);
    writer_ = std::thread([this, text = text.str()] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      std::ofstream(fifo_) << text;
    });
  }
  ~SlowKallsyms() {
    writer_.join();
    std::remove(fifo_.c_str());
  }
  const std::string& path() const { return fifo_; }

 private:
  std::string fifo_;
  std::thread writer_;
};

TEST_CASE("kernel frames are named in the kernel maps of their time") {
  JitDir dir;
  PerfDataBuilder b = Base();
  b.Sample(42, 42, 100, 1, {kUser, 0x1010});  // needs no kernel symbol
  b.Sample(42, 42, 200, 2, {kKernel, 0xffffffff83000010, kUser, 0x1010});
  b.Sample(42, 42, 300, 3, {kUser, 0x1110});  // after one that waits
  b.Comm(42, 42, "renamed", 400);  // held ones from before keep "java"
  b.Sample(42, 42, 500, 4, {kKernel, 0xffffffff81000110, kUser, 0x1010});
  // A kernel mapping comes between: the frames before it are named in the
  // kernel maps of their time.
  b.Mmap(UINT32_MAX, 0xffffffffa0000000, 0x1000, 0, "[ext4]", 600, 1);
  b.Sample(42, 42, 700, 5, {kKernel, 0xffffffff83000010});
  std::string bytes = b.Build();
  PerfDataStats fast_stats, slow_stats;
  std::string fast = Render(bytes, dir.Options(), &fast_stats);
  SymbolOptions slow = dir.Options();
  SlowKallsyms late(slow);
  slow.kallsyms = late.path();
  std::string text = Render(bytes, slow, &slow_stats);
  CHECK(text == fast);
  CHECK(fast ==
        "java    42 [000]     0.000000:          1 cpu-clock:ppp: \n"
        "\t            1010 jit_leaf+0x10 (/tmp/perf-42.map)\n\n"
        "java    42 [000]     0.000000:          2 cpu-clock:ppp: \n"
        "\tffffffff83000010 [unknown] ([unknown])\n"
        "\t            1010 jit_leaf+0x10 (/tmp/perf-42.map)\n\n"
        "java    42 [000]     0.000000:          3 cpu-clock:ppp: \n"
        "\t            1110 LJava/Thing;::run+0x10 (/tmp/perf-42.map)\n\n"
        "renamed    42 [000]     0.000000:          4 cpu-clock:ppp: \n"
        "\tffffffff81000110 do_work+0x10 ([kernel.kallsyms])\n"
        "\t            1010 jit_leaf+0x10 (/tmp/perf-42.map)\n\n"
        "renamed    42 [000]     0.000000:          5 cpu-clock:ppp: \n"
        "\tffffffff83000010 start_kernel+0x10 ([kernel.kallsyms])\n\n");
  CHECK(fast_stats.frames == slow_stats.frames);
}

// Folds `bytes` through the parser with kernel symbols that arrive late,
// and checks the result against reading back the text the replay renders:
// counts, statistics and the places the "first ..." messages name alike.
PerfDataStats CheckLateKernelFold(const std::string& bytes,
                                  const PerfScriptOptions& opts,
                                  const std::string& event = "cpu-clock:ppp") {
  JitDir dir;
  SymbolOptions o = dir.Options();
  SlowKallsyms late(o);
  SymbolOptions slow = o;
  slow.kallsyms = late.path();
  ParserFold fold(opts);
  REQUIRE(fold.Run(bytes, slow));
  std::string text = TextFor(bytes, o, opts);
  PerfScriptStats want;
  std::string folded = testing::FoldPerfScript(text, opts, &want);
  CHECK(testing::FoldedText(fold.trie) == folded);
  const PerfScriptStats& got = fold.parser.stats();
  CHECK(got.lines == want.lines);
  CHECK(got.samples == want.samples);
  CHECK(got.samples_other_event == want.samples_other_event);
  CHECK(got.other_event == want.other_event);
  CHECK(got.unrecognized_lines == want.unrecognized_lines);
  // The same line, named by its sample ("t.data: sample N at T: ") where
  // the text names its line ("test:LINE: ").
  std::string want_line = want.first_unrecognized;
  want_line.erase(0, std::min(want_line.size(),
                              want_line.find(": ") + 2));
  std::string got_line = got.first_unrecognized;
  CHECK(got_line.size() >= want_line.size());
  CHECK(got_line.substr(got_line.size() - want_line.size()) == want_line);
  CHECK(got.comment_lines == want.comment_lines);
  CHECK(fold.parser.event_filter() == event);
  return fold.stats;
}

// A recording of two events whose first sample, of `first_event` (1 or
// 2), has a kernel frame; then samples of either event, with headers the
// parser reads by their fields or as lines.
std::string TwoEventRecording(uint64_t first_event) {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  a.sample_type |= 1u << 16;  // identifier
  a.ids = {1};
  a.name = "cpu-clock:ppp";
  b.AddAttr(a);
  a.ids = {2};
  a.name = "other";
  b.AddAttr(a);
  b.Comm(42, 42, "java", 0);
  b.Comm(43, 43, " x", 0);  // its header is a line the parser does not know
  b.Comm(44, 44, "#c", 0);  // ... a comment line
  for (uint32_t pid : {42, 43, 44}) b.Mmap(pid, 0x1000, 0x1000, 0, "//anon", 0);
  b.Mmap(UINT32_MAX, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
         "[kernel.kallsyms]_text", 0, 1);
  const uint64_t kWork = 0xffffffff81000110;
  b.Sample(42, 42, 100, 1, {kKernel, kWork, kUser, 0x1010}, 2, first_event);
  b.Sample(42, 42, 110, 2, {kUser, 0x1010}, 2, 1);
  b.Sample(42, 42, 120, 4, {kUser, 0x1110}, 2, 1);
  b.Sample(43, 43, 130, 8, {kUser, 0x1010}, 2, 1);   // header as a line
  b.Sample(42, 42, 140, 16, {kUser, 0x1010}, 2, 1);
  b.Sample(42, 42, 150, 32, {kKernel, kWork}, 2, 1);
  b.FinishedRound();
  b.Sample(42, 42, 200, 64, {kKernel, kWork, kUser, 0x1010}, 2, 1);
  b.Sample(42, 42, 210, 128, {kUser, 0x1010}, 2, 2);  // another event
  b.Sample(42, 42, 220, 256, {kUser, 0x1110}, 2, 1);
  b.Sample(44, 44, 230, 512, {kUser, 0x1010}, 2, 1);
  b.Sample(42, 42, 240, 1024, {kUser, 0x1010}, 2, 1);
  return b.Build();
}

TEST_CASE("samples after one waiting for kernel symbols fold as the text") {
  std::string bytes = TwoEventRecording(1);
  PerfScriptOptions opts;
  CheckLateKernelFold(bytes, opts);
  opts.include_pid = true;
  opts.annotate_kernel = true;
  CheckLateKernelFold(bytes, opts);
  PerfScriptOptions modern;  // "comm PID/TID" headers, --tid
  modern.modern = modern.include_pid = modern.include_tid = true;
  CheckLateKernelFold(bytes, modern);
  // The first sample sets the event filter, whatever its frames wait for.
  CheckLateKernelFold(TwoEventRecording(2), PerfScriptOptions(), "other");
}

TEST_CASE("a missing kallsyms is a warning, frames stay [unknown]") {
  JitDir dir;
  SymbolOptions o = dir.Options();
  o.kallsyms = "/nonexistent/kallsyms";
  PerfDataBuilder b = Base();
  b.Sample(42, 42, 100, 1, {kKernel, 0xffffffff81000110});
  PerfDataStats stats;
  std::string text = Render(b.Build(), o, &stats);
  CHECK(text.find("ffffffff81000110 [unknown] ([kernel.kallsyms])") !=
        std::string::npos);
  REQUIRE(stats.warnings.size() == 1);
  CHECK(stats.warnings[0].find("/nonexistent/kallsyms") == 0);
}


// A recording folded with the samples' lines given on a thread of their
// own (FoldThread) and on the replay's thread: the same stacks,
// statistics, warnings and error.
void CheckFoldThreadChangesNothing(const std::string& bytes,
                                    const SymbolOptions& o,
                                    const PerfScriptOptions& opts = {}) {
  ParserFold with(opts), without(opts);
  without.fold_thread = false;
  bool with_ok = with.Run(bytes, o);
  bool without_ok = without.Run(bytes, o);
  CHECK(with_ok == without_ok);
  CHECK(with.err == without.err);
  CHECK(testing::FoldedText(with.trie) == testing::FoldedText(without.trie));
  CHECK(with.parser.stats().lines == without.parser.stats().lines);
  CHECK(with.parser.stats().samples == without.parser.stats().samples);
  CHECK(with.stats.samples == without.stats.samples);
  CHECK(with.stats.frames == without.stats.frames);
  CHECK(with.stats.frames_no_symbol == without.stats.frames_no_symbol);
  CHECK(with.stats.no_symbol_dsos == without.stats.no_symbol_dsos);
  CHECK(with.stats.warnings == without.stats.warnings);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST_CASE("the fold thread folds testdata's recordings as the replay does") {
  for (const char* name :
       {"system-wide", "dyn-c-fp", "dyn-cxx-fp-nodebug", "dyn-c-dwarf",
        "two-events", "group-read", "sample-read", "jit", "pipe", "zstd",
        "fp-user", "rust-fp"}) {
    CAPTURE(name);
    std::string dir = testing::TestFile("perf-data/") + name;
    std::string bytes = ReadFile(dir + "/perf.data");
    REQUIRE(!bytes.empty());
    SymbolOptions o;
    struct stat st;
    o.symfs = stat((dir + "/root").c_str(), &st) == 0
                  ? dir + "/root"
                  : testing::TestFile("perf-data/root");
    o.kallsyms = dir + "/kallsyms";
    o.debug_dir = "/nonexistent";
    CheckFoldThreadChangesNothing(bytes, o);
    PerfScriptOptions all;
    all.modern = true;
    all.include_pid = true;
    all.annotate_kernel = true;
    CheckFoldThreadChangesNothing(bytes, o, all);
  }
}

// A recording with nothing to load on other threads (user frames of a JIT
// map, an event that excludes the kernel): the fold thread starts at the
// first sample and takes them all, in batches.
PerfDataBuilder UserOnly(size_t samples, uint32_t comm_every) {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  a.name = "cpu-clock:u";
  a.flags |= 1ULL << 5;  // exclude_kernel
  b.AddAttr(a);
  b.Comm(42, 42, "java", 0);
  b.Mmap(42, 0x1000, 0x1000, 0, "//anon", 0);
  for (size_t i = 0; i < samples; ++i) {
    uint64_t t = 10 + i;
    if (comm_every && i % comm_every == comm_every - 1) {
      b.Comm(42, 42, i % 2 ? "app worker" : "app", t);
    }
    b.Sample(42, 42, t, 1 + i % 3,
             {kUser, 0x1010 + (i % 5), 0x1100 + (i % 7), 0x1200});
    if (i % 500 == 499) b.FinishedRound();
  }
  return b;
}

TEST_CASE("the fold thread from the first sample gives the same result") {
  JitDir dir;
  CheckFoldThreadChangesNothing(UserOnly(3000, 700).Build(), dir.Options());
  PerfScriptOptions opts;
  opts.annotate_jit = true;
  opts.include_tid = true;
  opts.modern = true;
  CheckFoldThreadChangesNothing(UserOnly(3000, 0).Build(), dir.Options(),
                                 opts);
}

// --modern: keeps "(anonymous namespace)::Fill" whole.
PerfScriptOptions Modern() {
  PerfScriptOptions modern;
  modern.modern = true;
  return modern;
}

// Checks that `bytes`, with dyn-cxx-fp's root for symbols, folds alike
// with and without the fold thread, by default and with --modern; then
// folds it with --modern into `with` and, without the thread, `without`.
void FoldBothWays(const std::string& bytes, ParserFold* with,
                  ParserFold* without) {
  SymbolOptions o;
  o.symfs = testing::TestFile("perf-data/dyn-cxx-fp/root");
  o.kallsyms = "/nonexistent/kallsyms";
  o.debug_dir = "/nonexistent";
  CheckFoldThreadChangesNothing(bytes, o);
  CheckFoldThreadChangesNothing(bytes, o, Modern());
  without->fold_thread = false;
  REQUIRE(with->Run(bytes, o));
  REQUIRE(without->Run(bytes, o));
}

// A build host's recording lists few of the DSOs its samples hit (perf record
// marks those of the samples' own addresses). The others, mapped while perf
// records, load where a frame of theirs is first named, and warn in that
// order; a DSO mapped but never used says nothing.
TEST_CASE("DSOs mapped but not in the build-id list warn as they are used") {
  PerfDataBuilder b = UserOnly(600, 0);
  // Written by perf at its start (time 0).
  b.Mmap(42, 0x7f2000000000, 0x1000, 0, "/nonexistent/libatstart.so", 0);
  b.Mmap(42, 0x555555554000, 0x6000, 0, "/tmp/ffdyn/dyncxx-fp", 700);
  b.Mmap(42, 0x7f0000000000, 0x1000, 0, "/nonexistent/libgone.so", 701);
  b.Mmap(42, 0x7f1000000000, 0x1000, 0, "/nonexistent/libunused.so", 702);
  // A process never sampled, and one sampled after it mapped a file.
  b.Comm(77, 77, "seq", 703);
  b.Mmap(77, 0x7f3000000000, 0x1000, 0, "/nonexistent/libnever.so", 704);
  b.Comm(88, 88, "late", 705);
  b.Mmap(88, 0x7f4000000000, 0x1000, 0, "/nonexistent/liblate.so", 706);
  for (uint64_t i = 0; i < 700; ++i) {
    uint64_t fill = 0x555555554000 + 0x22c0 + i % 16;
    uint64_t sort_all = 0x555555554000 + 0x1af0 + i % 8;
    std::vector<uint64_t> chain = {kUser, i % 3 ? fill : sort_all, 0x1010};
    if (i % 50 == 7) chain.insert(chain.begin() + 1, 0x7f0000000010);
    b.Sample(42, 42, 1000 + i, 1, chain);
    if (i == 400) b.Sample(88, 88, 1000 + i, 1, {kUser, 0x9000});
  }
  ParserFold with(Modern()), without(Modern());
  FoldBothWays(b.Build(), &with, &without);
  std::string folded = testing::FoldedText(with.trie);
  CHECK(folded.find("java;[perf-42.map];(anonymous namespace)::Fill 457\n") !=
        std::string::npos);
  CHECK(folded.find(";(anonymous namespace)::SortAll;[libgone.so] 5\n") !=
        std::string::npos);
  // The JIT map's warning, then the DSO's, in the order met; none for the
  // DSOs never used.
  REQUIRE(with.stats.warnings.size() == 2);
  CHECK(with.stats.warnings[1].find("libgone.so: no symbols found") !=
        std::string::npos);
}

// On a build host's recording the replay meets frames of DSOs mapped at
// perf's start: the libraries perf's fork left in cc1plus's maps
// (libpython, libstdc++), hit by the garbage past the first frames of its
// call chains, first met long after the fold thread started.
TEST_CASE("frames of DSOs first met late fold alike with the fold thread") {
  PerfDataBuilder b = UserOnly(600, 0);
  b.Mmap(42, 0x555555554000, 0x6000, 0, "/tmp/ffdyn/dyncxx-fp", 0);
  b.Mmap(42, 0x7f0000000000, 0x1000, 0, "/nonexistent/libgone.so", 0);
  for (uint64_t i = 0; i < 3000; ++i) {
    uint64_t fill = 0x555555554000 + 0x22c0 + i % 16;
    uint64_t sort_all = 0x555555554000 + 0x1af0 + i % 8;
    std::vector<uint64_t> chain = {kUser, 0x1010};
    if (i >= 1000) chain.push_back(i % 3 ? fill : sort_all);
    if (i >= 2000 && i % 50 == 7) chain.push_back(0x7f0000000010);
    b.Sample(42, 42, 1000 + i, 1, chain);
    if (i % 300 == 299) b.FinishedRound();
  }
  ParserFold with(Modern()), without(Modern());
  FoldBothWays(b.Build(), &with, &without);
  CHECK(testing::FoldedText(with.trie) ==
        "java;(anonymous namespace)::Fill;[perf-42.map] 1321\n"
        "java;(anonymous namespace)::SortAll;[perf-42.map] 659\n"
        "java;[libgone.so];(anonymous namespace)::Fill;[perf-42.map] 13\n"
        "java;[libgone.so];(anonymous namespace)::SortAll;[perf-42.map] 7\n"
        "java;[perf-42.map] 1000\n"
        "java;[perf-42.map];[perf-42.map];[perf-42.map] 1200\n");
  // The JIT map's warning, then the DSO's, in the order met.
  REQUIRE(with.stats.warnings.size() == 2);
  CHECK(with.stats.warnings[1].find("libgone.so: no symbols found") !=
        std::string::npos);
}

TEST_CASE("a name with a NUL byte folds alike with the fold thread") {
  // The fold thread waits for each sample with a NUL byte in its text
  // (SampleHandover::MayRefuse), which the parser could refuse.
  JitDir dir(std::string("1300 100 bad\0name\n", 19));
  PerfDataBuilder b = UserOnly(2000, 0);
  b.Sample(42, 42, 5001, 1, {kUser, 0x1310});
  PerfDataBuilder more = b;
  for (int i = 0; i < 600; ++i) {
    more.Sample(42, 42, 5002 + i, 1, {kUser, 0x1100});
  }
  CheckFoldThreadChangesNothing(b.Build(), dir.Options());
  CheckFoldThreadChangesNothing(more.Build(), dir.Options());
  ParserFold fold{PerfScriptOptions()};
  CHECK(fold.Run(more.Build(), dir.Options()));
  CHECK(testing::FoldedText(fold.trie).find("java;bad 1\n") !=
        std::string::npos);
}

}  // namespace
}  // namespace flamefold
