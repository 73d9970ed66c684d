// SampleLines: a held sample whose frames are named goes to the fold by its
// fields and frames, or becomes perf script's text; SampleLinesThread puts
// batches of them in order on its own thread and gives back the first
// error.
#include "perfdata/sample_lines.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "collapse/perf_lines.h"
#include "collapse/perf_script.h"
#include "collapse/sample_fold.h"
#include "perfdata/sample_lines_thread.h"
#include "test_util.h"

namespace flamefold {
namespace {

std::vector<PerfAttr> Events() {
  PerfAttr a;
  a.sample_type = (1u << 1) | (1u << 2);  // tid, time: the event is shown
  a.name = "cpu-clock";
  return {a};
}

// A frame made from its text, "<pc> <symbol> (<module>)", as FrameTexts
// makes it (its fields views into the text).
FrameText Made(std::string_view text, uint32_t id,
               uint64_t* no_symbol = nullptr) {
  FrameText f{text, no_symbol};
  FrameFields fields;
  std::string line = "\t" + std::string(text);
  if (MatchFrameLine(line, &fields)) {
    size_t at = fields.pc.data() - line.data() - 1;
    f.frame.pc = text.substr(at, fields.pc.size());
    at = fields.rawfunc.data() - line.data() - 1;
    f.frame.symbol = text.substr(at, fields.rawfunc.size());
    at = fields.mod.data() - line.data() - 1;
    f.frame.module = text.substr(at, fields.mod.size());
  }
  f.frame.id = id;
  return f;
}

// Two frames of a DSO, the second without a symbol.
struct Frames {
  uint64_t no_symbol = 0;
  FrameText leaf = Made("401000 leaf (/bin/app)", 0);
  FrameText unknown = Made("402000 [unknown] (/bin/app)", 1, &no_symbol);
};

TEST_CASE("a sample's lines as perf script's text") {
  Frames f;
  SampleLines lines(nullptr);
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

// A fold into a trie of its own.
struct Fold {
  Fold() { fold.StartRecording("t.data", 0); }
  std::string Folded() {
    fold.Finish();
    return testing::FoldedText(trie);
  }
  StringInterner names;
  StackTrie trie{&names};
  SampleFold fold{PerfScriptOptions(), &names, &trie};
};

// `n` samples of "app" (by their fields) with the frames leaf and
// [unknown], in `held`.
void HoldSamples(HeldSamples* held, Frames* f, int n) {
  for (int i = 0; i < n; ++i) {
    HeaderValues v{2, 0, 42, 42, 0, 1000000000, 1, 0};
    held->Begin(true, &v);
    *held->header() += "app";
    held->AddNamed(&f->leaf);
    held->AddNamed(&f->unknown);
  }
}

TEST_CASE("a sample to the fold, by its fields and frames") {
  Frames f;
  Fold p;
  SampleLines lines(&p.fold);
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
  SampleLines lines(&by_fields.fold);
  lines.SetEvents(Events());
  std::string err;
  for (size_t i = 0; i < held.size(); ++i) {
    REQUIRE(lines.Put(held.at(i), &err));
  }
  // The same samples as text ("app 42 ..." headers), read line by line.
  SampleLines text(nullptr);
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

TEST_CASE("the lines thread puts batches in order, as Put would") {
  Frames f;
  Fold p;
  SampleLines lines(&p.fold);
  lines.SetEvents(Events());
  {
    SampleLinesThread thread(&lines);
    for (int b = 0; b < 50; ++b) {
      std::unique_ptr<HeldSamples> batch = thread.Empty();
      HoldSamples(batch.get(), &f, 10);
      thread.Send(std::move(batch));
    }
    std::string err;
    CHECK(thread.Drain(&err));
    CHECK(err.empty());
    // Drained: the caller may use the lines itself until the next Send.
    HeldSamples held;
    HoldSamples(&held, &f, 1);
    REQUIRE(lines.Put(held.at(0), &err));
  }
  CHECK(p.Folded() == "app;[app];leaf 1002\n");
  CHECK(lines.frame_count() == 1002);
  CHECK(f.no_symbol == 501);
}

TEST_CASE("the lines thread gives the first sample refused, then drops "
          "the rest") {
  Frames f;
  Fold p;
  SampleLines lines(&p.fold);
  lines.SetEvents(Events());
  SampleLinesThread thread(&lines);
  std::unique_ptr<HeldSamples> batch = thread.Empty();
  HoldSamples(batch.get(), &f, 2);
  HeaderValues v{2, 0, 42, 42, 0, 1000000000, 3, 0};
  batch->Begin(true, &v);  // a frame with a NUL byte
  FrameText nul = Made(std::string_view("403000 n\0l (/bin/app)", 22), 2);
  batch->AddNamed(&nul);
  HoldSamples(batch.get(), &f, 2);
  thread.Send(std::move(batch));
  batch = thread.Empty();
  HoldSamples(batch.get(), &f, 2);
  thread.Send(std::move(batch));
  std::string err;
  CHECK(!thread.Drain(&err));
  CHECK(err.find("t.data: sample 3 at 1.000000: ") == 0);
  CHECK(err.find("NUL byte") != std::string::npos);
  // Stopped at the sample refused, as the replay stops.
  CHECK(lines.frame_count() == 2 * 2 + 1);
}

}  // namespace
}  // namespace flamefold
