// SampleLines: a held sample whose frames are named becomes perf script's
// lines, as text or given to the parser; SampleLinesThread puts batches of
// them in order on its own thread and gives back the first error.
#include "perfdata/sample_lines.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "perfdata/sample_lines_thread.h"
#include "test_util.h"

namespace flamefold {
namespace {

std::vector<PerfAttr> Events() {
  PerfAttr a;
  a.sample_type = 1u << 2;  // time: the event is shown
  a.name = "cpu-clock";
  return {a};
}

// Two frames of a DSO, the second without a symbol.
struct Frames {
  uint64_t no_symbol = 0;
  FrameText leaf{"401000 leaf (/bin/app)"};
  FrameText unknown{"402000 [unknown] (/bin/app)", &no_symbol};
};

TEST_CASE("a sample's lines as perf script's text") {
  Frames f;
  SampleLines lines(nullptr, false);
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

// A parser folding into a trie of its own.
struct Parser {
  Parser() : parser(PerfScriptOptions(), &names, &trie) {
    parser.StartLines("t.data");
  }
  std::string Folded() {
    parser.Finish();
    return testing::FoldedText(trie);
  }
  StringInterner names;
  StackTrie trie{&names};
  PerfScriptParser parser;
};

// `n` samples of "app" (by their fields) with the frames leaf and
// [unknown], in `held`.
void HoldSamples(HeldSamples* held, Frames* f, int n) {
  for (int i = 0; i < n; ++i) {
    HeaderValues v{2, 0, 42, 42};
    held->Begin(true, &v);
    *held->header() += "app";
    held->AddNamed(&f->leaf);
    held->AddNamed(&f->unknown);
  }
}

TEST_CASE("a sample's lines to the parser, by their fields and line ids") {
  Frames f;
  Parser p;
  SampleLines lines(&p.parser, false);
  lines.SetEvents(Events());
  HeldSamples held;
  HoldSamples(&held, &f, 3);
  std::string err;
  for (size_t i = 0; i < held.size(); ++i) REQUIRE(lines.Put(held.at(i), &err));
  CHECK(p.Folded() == "app;[app];leaf 6\n");
  CHECK(f.leaf.resolved[0]);  // looked up once, then by its id
  CHECK(lines.frame_count() == 6);
}

// The frames with a line id go to the parser in one call a sample
// (PutFramesById), one without between them by its text, in its place: the
// folded stacks, the line count and the unrecognised line's number are
// those of the text read line by line.
TEST_CASE("lines by id around a line by text keep their order") {
  Frames f;
  FrameText odd{"not a frame line"};
  HeldSamples held;
  for (int i = 0; i < 2; ++i) {
    HeaderValues v{2, 0, 42, 42};
    held.Begin(true, &v);
    *held.header() += "app";
    held.AddNamed(&f.leaf);
    held.AddNamed(&odd);
    held.AddNamed(&f.unknown);
  }
  Parser by_id;
  SampleLines lines(&by_id.parser, false);
  lines.SetEvents(Events());
  std::string err;
  for (size_t i = 0; i < held.size(); ++i) {
    REQUIRE(lines.Put(held.at(i), &err));
  }
  CHECK(f.leaf.line_id[0] != PerfScriptParser::kNoStackLineId);
  CHECK(odd.line_id[0] == PerfScriptParser::kNoStackLineId);
  // The same samples as text ("app 42 ..." headers), read line by line.
  Parser by_text;
  SampleLines text(nullptr, false);
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
  std::string_view all = *text.text();
  for (size_t start = 0; start < all.size();) {
    size_t nl = all.find('\n', start);
    REQUIRE(by_text.parser.Line(all.substr(start, nl - start), &err));
    start = nl + 1;
  }
  const PerfScriptStats& a = by_id.parser.stats();
  const PerfScriptStats& b = by_text.parser.stats();
  CHECK(a.lines == b.lines);
  CHECK(a.unrecognized_lines == 2);
  CHECK(a.unrecognized_lines == b.unrecognized_lines);
  CHECK(a.first_unrecognized_at == b.first_unrecognized_at);
  CHECK(by_id.parser.lines_given() == by_text.parser.lines_given());
  CHECK(by_id.Folded() == by_text.Folded());
}

TEST_CASE("the lines thread puts batches in order, as Put would") {
  Frames f;
  Parser p;
  SampleLines lines(&p.parser, false);
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

TEST_CASE("the lines thread gives the first line refused, then drops the "
          "rest") {
  Frames f;
  Parser p;
  SampleLines lines(&p.parser, false);
  lines.SetEvents(Events());
  SampleLinesThread thread(&lines);
  std::unique_ptr<HeldSamples> batch = thread.Empty();
  HoldSamples(batch.get(), &f, 2);
  batch->Begin(true);  // a header line with a NUL byte
  *batch->header() += std::string("app 42 1.0: 1 cpu-clock: \0", 26);
  batch->AddNamed(&f.leaf);
  HoldSamples(batch.get(), &f, 2);
  thread.Send(std::move(batch));
  batch = thread.Empty();
  HoldSamples(batch.get(), &f, 2);
  thread.Send(std::move(batch));
  std::string err;
  CHECK(!thread.Drain(&err));
  CHECK(err.find("t.data:") == 0);
  CHECK(err.find("NUL byte") != std::string::npos);
  // Stopped at the sample refused, its lines all given, as the replay stops.
  CHECK(lines.frame_count() == 2 * 2 + 1);
}

}  // namespace
}  // namespace flamefold
