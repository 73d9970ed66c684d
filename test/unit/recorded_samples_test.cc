// RecordedSamples: a held sample whose frames are named goes to the fold by
// its fields and frames, or becomes perf script's text; a sample's header
// as perf script prints it for its event (EventOf, HeaderOf).
#include "perfdata/recorded_samples.h"

#include <doctest/doctest.h>
#include <linux/perf_event.h>

#include <memory>
#include <string>

#include "collapse/perf_script.h"
#include "collapse/perf_script_lines.h"
#include "held_sample_fakes.h"

namespace flamefold {
namespace {

using namespace testing;  // held_sample_fakes.h

TEST_CASE("a sample's lines as perf script's text") {
  Frames f;
  RecordedSamples lines(nullptr);
  lines.SetEvents(Events());
  HeldSamples held;
  held.Begin(true);
  *held.header() += "app    42     1.000000:          1 cpu-clock: ";
  held.AddNamed(&f.leaf);
  held.AddNamed(&f.unknown);
  held.Begin(false);
  *held.header() += "app    42     2.000000:          1 cpu-clock:";
  held.AddNamed(&f.leaf);
  std::string err;
  REQUIRE(lines.Put(held.at(0), &err));
  REQUIRE(lines.Put(held.at(1), &err));
  CHECK(*lines.text() ==
        "app    42     1.000000:          1 cpu-clock: \n"
        "\t401000 leaf (/bin/app)\n"
        "\t402000 [unknown] (/bin/app)\n"
        "\n"
        "app    42     2.000000:          1 cpu-clock: 401000 leaf (/bin/app)\n");
  CHECK(lines.frame_count() == 3);
  CHECK(f.no_symbol == 1);
}

TEST_CASE("a sample to the fold, by its fields and frames") {
  Frames f;
  Fold p;
  RecordedSamples lines(&p.fold);
  lines.SetEvents(Events());
  HeldSamples held;
  HoldSamples(&held, &f, 3);
  std::string err;
  for (size_t i = 0; i < held.size(); ++i) REQUIRE(lines.Put(held.at(i), &err));
  CHECK(lines.frame_count() == 6);
  CHECK(p.Folded() == "app;[app];leaf 6\n");
}

// A frame whose line is not a frame's is read as text, in its place among
// the frames by their fields: the folded stacks and the counts are those of
// the text read line by line.
TEST_CASE("a frame read as text among frames by fields keeps its order") {
  Frames f;
  // No address: " x (m)" is no frame's line (MatchFrameLine).
  FrameText odd{" x (m)"};
  odd.frame.id = 2;
  odd.frame.symbol = "x";
  odd.frame.module = "m";
  HeldSamples held;
  for (int i = 0; i < 2; ++i) {
    HeaderValues v{2, 0, 42, 42, 0, 1000000000, 1, 0};
    held.Begin(true, &v);
    *held.header() += "app";
    held.AddNamed(&f.leaf);
    held.AddNamed(&odd);
    held.AddNamed(&f.unknown);
  }
  Fold by_fields;
  RecordedSamples lines(&by_fields.fold);
  lines.SetEvents(Events());
  std::string err;
  for (size_t i = 0; i < held.size(); ++i) {
    REQUIRE(lines.Put(held.at(i), &err));
  }
  // The same samples as text ("app 42 ..." headers), read line by line.
  RecordedSamples text(nullptr);
  text.SetEvents(Events());
  for (size_t i = 0; i < held.size(); ++i) {
    HeldSamples one;
    one.Begin(true);
    *one.header() += "app    42     1.000000:          2 cpu-clock: ";
    one.AddNamed(&f.leaf);
    one.AddNamed(&odd);
    one.AddNamed(&f.unknown);
    REQUIRE(text.Put(one.at(0), &err));
  }
  StringInterner names;
  StackTrie trie(&names);
  PerfScriptParser by_text(PerfScriptOptions(), &names, &trie);
  LineReader reader(*text.text());
  REQUIRE(by_text.Feed(&reader, "t.data", &err));
  by_text.Finish();
  const PerfScriptStats& a = by_fields.fold.stats();
  const PerfScriptStats& b = by_text.stats();
  CHECK(a.lines == b.lines);
  CHECK(a.unrecognized_lines == 2);
  CHECK(a.unrecognized_lines == b.unrecognized_lines);
  CHECK(a.first_unrecognized.find("t.data: sample 1 at 1.000000: ") == 0);
  CHECK(by_fields.Folded() == testing::FoldedText(trie));
}

// The header of sample `s` of event `a` in a thread named `comm`.
void AppendHeader(const PerfAttr& a, const PerfSample& s,
                  std::string_view comm, SampleHeaderStyle style,
                  std::string* out) {
  RecordedSample r;
  r.pid = static_cast<int32_t>(s.pid);
  r.tid = static_cast<int32_t>(s.tid);
  r.cpu = static_cast<int32_t>(s.cpu);
  r.time = s.time;
  r.period = s.period;
  r.comm = comm;
  r.chain = (a.sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
  AppendSampleHeader(RecordedSamples::EventOf(a), r, style,
                                out);
}


TEST_CASE("the sample header as perf script prints it") {
  PerfAttr a;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
                  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
  a.name = "cycles";
  PerfSample s;
  s.pid = 12;
  s.tid = 34;
  s.cpu = 3;
  s.time = 1234567891234;  // ns
  s.period = 1001001;
  std::string out;
  AppendHeader(a, s, "java", SampleHeaderStyle{}, &out);
  CHECK(out == "java    34 [003]  1234.567891:    1001001 cycles: ");
  out.clear();
  SampleHeaderStyle style;
  style.name_width = 9;  // "cpu-clock"
  style.pid_tid = true;
  a.sample_type &= ~PERF_SAMPLE_CALLCHAIN;  // the frame follows: "%16s"
  AppendHeader(a, s, "sh", style, &out);
  CHECK(out == "              sh    12/34    [003]  1234.567891:    1001001    cycles: ");
}

// A tracepoint's header has no period (perf script's default fields for
// one). The replay writes the header as text where its fields would not
// read back (a thread that exited, pid -1): perf script printed
//   :-1    -1 [000]  2894.600804: sched:sched_switch: prev_comm=thr ...
// which stackcollapse-perf.pl does not take for a header; with a period
// written before the event, the sample had been folded.
TEST_CASE("a tracepoint's sample header has no period") {
  PerfAttr a;
  a.type = PERF_TYPE_TRACEPOINT;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
                  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
  a.name = "sched:sched_switch";
  PerfSample s;
  s.pid = -1;
  s.tid = -1;
  s.cpu = 0;
  s.time = 2894600804000;
  s.period = 1;
  std::string out;
  AppendHeader(a, s, ":-1", SampleHeaderStyle{}, &out);
  CHECK(out == ":-1    -1 [000]  2894.600804: sched:sched_switch: [fields]");
}

}  // namespace
}  // namespace flamefold
