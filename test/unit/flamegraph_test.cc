// flamesvg's library parts: text helpers, line parsing, the merger and the
// writer. Whole-graph equality with flamegraph.pl is tested by
// test/golden/flamesvg.sh against its real output.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "flamegraph/svg_writer.h"
#include "flamegraph/flamegraph_merge.h"
#include "flamegraph/svg_text.h"

namespace flamefold {
namespace {

TEST_CASE("Fixed rounds as C printf (half to even on the binary value)") {
  CHECK(Fixed(2.5, 0) == "2");
  CHECK(Fixed(3.5, 0) == "4");
  CHECK(Fixed(0.25, 1) == "0.2");
  CHECK(Fixed(1.005, 2) == "1.00");
  CHECK(Fixed(600, 2) == "600.00");
}

TEST_CASE("Fixed and FixedValue agree with printf and strtod on any double") {
  std::vector<double> values = {0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 2.5, 3.5,
                                1.125, 1.005, -0.04, -0.05, -2.5, 99.995,
                                4.4999e13, 4.5e13, 1e20, 123456789.125};
  uint64_t seed = 99;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 11;
  };
  for (int i = 0; i < 30000; ++i) {
    double unit = static_cast<double>(next()) / 9007199254740992.0;  // [0, 1)
    double scale = std::ldexp(1.0, static_cast<int>(next() % 60) - 10);
    values.push_back((next() % 4 == 0 ? -1 : 1) * unit * scale);
    // Ties and near-ties: k / 2^n, and a step either side.
    double tie = static_cast<double>(next() % 100000) / static_cast<double>(1u << (next() % 8));
    values.push_back(tie);
    values.push_back(std::nextafter(tie, 0.0));
    values.push_back(std::nextafter(tie, 1e300));
  }
  for (double v : values) {
    for (int decimals = 0; decimals <= 3; ++decimals) {
      char want[512];
      std::snprintf(want, sizeof want, "%.*f", decimals, v);
      CHECK(Fixed(v, decimals) == want);
      double read = std::strtod(want, nullptr);
      double got = FixedValue(v, decimals);
      CHECK(std::memcmp(&got, &read, sizeof got) == 0);  // -0.0 too
    }
  }
}

TEST_CASE("GroupThousands inserts commas as perlfaq5's regex does") {
  CHECK(GroupThousands("0") == "0");
  CHECK(GroupThousands("999") == "999");
  CHECK(GroupThousands("1000") == "1,000");
  CHECK(GroupThousands("1234567") == "1,234,567");
  CHECK(GroupThousands("-1234") == "-1,234");
}

TEST_CASE("PerlNumify takes the longest numeric prefix") {
  CHECK(PerlNumify("12") == 12);
  CHECK(PerlNumify(" 2.5x") == 2.5);
  CHECK(PerlNumify("1e3") == 1000);
  CHECK(PerlNumify("abc") == 0);
  CHECK(PerlNumify("1.2.3") == 1.2);
}

std::string Escaped(std::string_view s) {
  std::string out;
  AppendXmlEscaped(s, &out);
  return out;
}

TEST_CASE("XML escaping makes any bytes well-formed text") {
  CHECK(Escaped("a&b<c>\"d'") == "a&amp;b&lt;c&gt;&quot;d&#39;");
  CHECK(Escaped("x\x01y\x7f") == "xy");
  CHECK(Escaped("bad\xff") == "bad\xEF\xBF\xBD");
  CHECK(Escaped("tab\there") == "tab&#9;here");
  CHECK(Escaped("]]>") == "]]&gt;");
}

TEST_CASE("UTF-8 helpers count code points") {
  CHECK(CodePointCount("caf\xC3\xA9") == 4);
  CHECK(CodePointPrefix("\xC3\xA9\xC3\xA9x", 2) == "\xC3\xA9\xC3\xA9");
  CHECK(IsValidUtf8("\xE5\x87\xBD"));
  CHECK_FALSE(IsValidUtf8("\xC0\xAF"));  // overlong '/'
  std::string out;
  AppendValidUtf8("a\xFF" "b", &out);
  CHECK(out == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("PerlSplit drops trailing empty fields, keeps leading ones") {
  std::vector<std::string_view> f;
  PerlSplit("a;b;", ";", &f);
  CHECK(f == std::vector<std::string_view>{"a", "b"});
  PerlSplit(";a;;b", ";", &f);
  CHECK(f == std::vector<std::string_view>{"", "a", "", "b"});
  PerlSplit(";;", ";", &f);
  CHECK(f.empty());
  PerlSplit("", ";", &f);
  CHECK(f.empty());
}

TEST_CASE("ParseFlameLine: one or two count columns") {
  std::string_view stack, c1, c2;
  REQUIRE(ParseFlameLine("a;b 12", &stack, &c1, &c2));
  CHECK(stack == "a;b");
  CHECK(c1 == "12");
  CHECK(c2.empty());
  REQUIRE(ParseFlameLine("a;b 3 5.5", &stack, &c1, &c2));
  CHECK(stack == "a;b");
  CHECK(c1 == "3");
  CHECK(c2 == "5.5");
  REQUIRE(ParseFlameLine("a;b  5", &stack, &c1, &c2));
  CHECK(stack == "a;b ");  // Perl keeps the extra space in the name
  CHECK_FALSE(ParseFlameLine("a;b", &stack, &c1, &c2));
  CHECK_FALSE(ParseFlameLine("a;b -1", &stack, &c1, &c2));
}

TEST_CASE("ReverseFlameLine and ChainAnnotate") {
  CHECK(ReverseFlameLine("a;b;c 5") == "c;b;a 5");
  CHECK(ReverseFlameLine("a;b\t3 4") == "b;a 3 4");
  CHECK(ReverseFlameLine("junk") == " ");
  CHECK(ChainAnnotate("a;b") == "a;b;--;");
  CHECK(ChainAnnotate("a;--;b;c") == "a;--;b_[w];c_[w]");
}

MinWidth NoMinWidth() {
  MinWidth mw;
  mw.value = 0;
  return mw;
}

// A merger's frames as "name@depth:start-end", in the order they close.
std::vector<std::string> FrameList(const FrameMerger& m) {
  std::vector<std::string> got;
  for (const FlameFrame& f : m.frames()) {
    got.push_back(std::string(m.names().Get(f.name)) + "@" +
                  std::to_string(f.depth) + ":" +
                  std::to_string(static_cast<int>(f.stime)) + "-" +
                  std::to_string(static_cast<int>(f.etime)));
  }
  return got;
}

TEST_CASE("FrameMerger merges sorted lines into frames") {
  FrameMerger m(NoMinWidth(), false);
  for (const char* line : {"a;b 2", "a;b;c 3", "a;d 1", "x 4"}) m.AddLine(line);
  m.Finish();
  CHECK(m.time() == 10);
  CHECK(m.depth_max() == 3);
  // Frames in the order they close.
  CHECK(FrameList(m) == std::vector<std::string>{"c@3:2-5", "b@2:0-5", "d@2:5-6",
                                        "a@1:0-6", "x@1:6-10", "@0:0-10"});
}

// The frames of `lines` merged, as "name@depth:start-end" in closing order.
std::vector<std::string> MergedFrames(std::initializer_list<const char*> lines) {
  FrameMerger m(NoMinWidth(), false);
  for (const char* line : lines) m.AddLine(line);
  m.Finish();
  return FrameList(m);
}

TEST_CASE("FrameMerger shares whole frames only, as split on ';' gives them") {
  // "a;b" and "a;bc" share the bytes "a;b" but only the frame a.
  CHECK(MergedFrames({"a;b 1", "a;bc 2"}) ==
        std::vector<std::string>{"b@2:0-1", "bc@2:1-3", "a@1:0-3", "@0:0-3"});
  // A shorter stack ends inside the longer one's frames.
  CHECK(MergedFrames({"a;b;c 1", "a;b 2", "a 4"}) ==
        std::vector<std::string>{"c@3:0-1", "b@2:0-3", "a@1:0-7", "@0:0-7"});
  // Trailing ';' add no frame; an empty frame inside a stack is a frame.
  CHECK(MergedFrames({"a;;b 1", "a;;b;; 2", "a;;c 1", "a; 1"}) ==
        std::vector<std::string>{"b@3:0-3", "c@3:3-4", "@2:0-4", "a@1:0-5",
                                 "@0:0-5"});
  // An empty stack is the root alone; ";x" starts with an empty frame.
  CHECK(MergedFrames({" 1", ";x 2", "x 1"}) ==
        std::vector<std::string>{"x@2:1-3", "@1:1-3", "x@1:3-4", "@0:0-4"});
}

// The frames of sorted `lines` ("stack count") by their definition: a frame
// for each run of consecutive lines that share its frames up to it, from
// the time before the run's first line to the time after its last.
std::vector<std::string> TrieFrames(const std::vector<std::string>& lines) {
  struct Node { std::string name; size_t depth; uint64_t start; };
  std::vector<std::string> closed;
  std::vector<Node> open;
  std::vector<std::string> prev;
  uint64_t time = 0;
  auto close_to = [&](size_t depth) {
    while (open.size() > depth) {
      const Node& n = open.back();
      closed.push_back(n.name + "@" + std::to_string(n.depth) + ":" +
                       std::to_string(n.start) + "-" + std::to_string(time));
      open.pop_back();
    }
  };
  for (const std::string& line : lines) {
    size_t space = line.rfind(' ');
    std::vector<std::string> frames;
    std::string_view stack(line.data(), space);
    for (size_t pos = 0;;) {
      size_t semi = stack.find(';', pos);
      frames.emplace_back(stack.substr(pos, semi - pos));
      if (semi == std::string_view::npos) break;
      pos = semi + 1;
    }
    size_t same = 0;
    while (same < frames.size() && same < prev.size() && frames[same] == prev[same]) ++same;
    if (open.empty()) open.push_back({"", 0, time});
    close_to(same + 1);
    for (size_t d = same; d < frames.size(); ++d) open.push_back({frames[d], d + 1, time});
    time += std::stoull(line.substr(space + 1));
    prev = frames;
  }
  close_to(0);
  return closed;
}

TEST_CASE("FrameMerger: random sorted stacks give the frames of their trie") {
  // Names of 1-40 bytes from a small set, so that stacks share prefixes
  // which end, and differ, at every offset of the 16-byte blocks compared.
  uint64_t seed = 7;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) {
    std::string name(1 + next() % 40, 'a');
    for (char& c : name) c = "abcxyz_:<>"[next() % 10];
    names.push_back(name);
  }
  names.push_back(names[3] + "x");  // a name that extends another
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> lines;
    for (int i = 0; i < 60; ++i) {
      std::string stack;
      size_t depth = 1 + next() % 12;
      for (size_t d = 0; d < depth; ++d) {
        if (d > 0) stack += ';';
        stack += names[next() % (d < 3 ? 3 : names.size())];
      }
      lines.push_back(stack + " " + std::to_string(1 + next() % 9));
    }
    std::sort(lines.begin(), lines.end());
    FrameMerger m(NoMinWidth(), false);
    for (const std::string& line : lines) m.AddLine(line);
    m.Finish();
    std::vector<std::string> got = FrameList(m), want = TrieFrames(lines);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
}

TEST_CASE("FrameMerger drops frames below --minwidth and counts bad lines") {
  MinWidth mw;
  mw.value = 10;
  mw.percent = true;
  FrameMerger m(mw, false);
  for (const char* line : {"a;b 95", "a;c 5", "bad", ""}) m.AddLine(line);
  m.Finish();
  CHECK(m.ignored() == 2);
  CHECK(m.frames().size() == 3);  // root, a, b: c is 5% < 10%
  CHECK(m.depth_max() == 2);
}

TEST_CASE("FrameMerger: a differential line's delta goes to its leaf") {
  FrameMerger m(NoMinWidth(), false);
  m.AddLine("a;b 5 2");
  m.AddLine("a;c 1 4");
  m.Finish();
  CHECK(m.time() == 6);  // widths from the second column
  CHECK(m.max_delta() == 3);
  for (const FlameFrame& f : m.frames()) {
    std::string_view name = m.names().Get(f.name);
    if (name == "b") CHECK(f.delta == -3);
    if (name == "c") CHECK(f.delta == 3);
    if (name == "a") CHECK(f.delta == 0);
  }
}

TEST_CASE("FrameMerger: zero-count lines reuse flamegraph.pl's node keys") {
  // "c;b 0" closes a frame b at depth 2 with the same end time as "a;b":
  // flamegraph.pl keys both "b;2;5", so the second overwrites the first's
  // start and the first frame shrinks to nothing.
  FrameMerger m(NoMinWidth(), false);
  m.AddLine("a;b 5");
  m.AddLine("c;b 0");
  m.Finish();
  int b_frames = 0;
  for (const FlameFrame& f : m.frames()) {
    if (m.names().Get(f.name) == "b") {
      ++b_frames;
      CHECK(f.stime == 5);
      CHECK(f.etime == 5);
    }
  }
  CHECK(b_frames == 1);
}

TEST_CASE("FrameMerger drops early frames that end below the final --minwidth") {
  // 20,000 one-sample leaves are wide enough when they close (the total is
  // small then) but not at the end; frames_ is pruned along the way, and
  // zero-count lines after a prune still replace their key's frame.
  FrameMerger m(MinWidth(), false);  // 0.1 px of 1180
  char line[64];
  for (int i = 0; i < 20000; ++i) {
    std::snprintf(line, sizeof line, "a;f%05d 1", i);
    m.AddLine(line);
  }
  m.AddLine("b;c 1000000");
  m.AddLine("d;c 0");
  // Closes the second c at the end time of the first: flamegraph.pl keys
  // both "c;2;1020000", so the frame drawn starts where the second does.
  m.AddLine("e 1000000");
  m.Finish();
  std::vector<std::string> got;
  for (const FlameFrame& f : m.frames()) {
    got.push_back(std::string(m.names().Get(f.name)) + "@" +
                  std::to_string(f.depth) + ":" +
                  std::to_string(static_cast<int>(f.width)));
  }
  // c's second closing set its width to 0: it is gone with the leaves.
  CHECK(got == std::vector<std::string>{"a@1:20000", "b@1:1000000",
                                        "e@1:1000000", "@0:2020000"});
}

TEST_CASE("FrameMerger::LimitFrames keeps the widest frames") {
  FrameMerger m(NoMinWidth(), false);
  for (const char* line : {"a;b 50", "a;c 30", "a;d 15", "a;e 5"}) {
    m.AddLine(line);
  }
  m.Finish();
  CHECK(m.frames().size() == 6);
  CHECK(m.LimitFrames(4) == 2);
  CHECK(m.frames().size() == 4);  // root, a, b, c
}

// The SVG of the folded `lines`, drawn with `opt` and `colors`.
std::string Draw(std::initializer_list<const char*> lines,
                 const FlameGraphOptions& opt, ColorSource* colors) {
  FrameMerger m(NoMinWidth(), false);
  for (const char* line : lines) m.AddLine(line);
  m.Finish();
  StringSink out;
  WriteFlameGraph(m, opt, colors, nullptr, &out);
  return out.str();
}

TEST_CASE("WriteFlameGraph escapes names, titles and notes") {
  FlameGraphOptions opt;
  opt.title = "A & B <c>";
  opt.notes = "n -- m-";
  ColorSource colors(ColorMode::kHash);
  const std::string svg = Draw(
      {"main;<script>x</script>;a&b 5", "main;q\"uote;\x01" "ctl 5"}, opt,
      &colors);
  CHECK(svg.find("<script>x") == std::string::npos);
  CHECK(svg.find("&lt;script&gt;x&lt;/script&gt;") != std::string::npos);
  CHECK(svg.find(">A &amp; B &lt;c&gt;</text>") != std::string::npos);
  CHECK(svg.find("<!-- NOTES: n - - m-  -->") != std::string::npos);
  CHECK(svg.find('\x01') == std::string::npos);
  CHECK(svg.find("q&quot;uote (5 samples, 50.00%)") != std::string::npos);
}

TEST_CASE("WriteFlameGraph: off-CPU frames are blue, shown without _[o]") {
  ColorSource colors(ColorMode::kHash);
  const std::string svg =
      Draw({"main;run 6", "main_[o];futex_wait_[o] 4"}, {}, &colors);
  CHECK(svg.find("_[o]") == std::string::npos);
  const std::string blue = colors.Color("blue", "futex_wait_[o]");
  CHECK(svg.find("<title>futex_wait (4 samples, 40.00%)</title><rect") !=
        std::string::npos);
  CHECK(svg.find("fill=\"" + blue + "\"") != std::string::npos);
  CHECK(svg.find("fill=\"" + colors.Color("hot", "run") + "\"") !=
        std::string::npos);
  CHECK(svg.find(">futex_wait</text>") != std::string::npos);
}

TEST_CASE("WriteFlameGraph: the same frames give the same bytes") {
  auto render = [] {
    ColorSource colors(ColorMode::kSeeded);
    return Draw({"a;b 3", "a;c 4", "d 1"}, {}, &colors);
  };
  CHECK(render() == render());
}

TEST_CASE("WriteFlameGraph draws each depth from left to right") {
  // Past 15 digits the end-time keys round (%.15g): the second "a" of depth
  // 1 closes at the first one's key, which takes its later start, ahead of
  // the "b" that started between them.
  FrameMerger m(NoMinWidth(), false);
  for (const char* line : {"b;a 1", "a;c 3.3", "b;b 0.1", "b;b 0", "c 1",
                           "a;a 1000000000000000", "b;a 1", "a;c;a 0.25"}) {
    m.AddLine(line);
  }
  m.Finish();
  FlameGraphOptions opt;
  ColorSource colors(ColorMode::kSeeded);
  StringSink out;
  WriteFlameGraph(m, opt, &colors, nullptr, &out);
  // The depth-1 frames' titles, in the order drawn.
  std::vector<std::string> depth1;
  const std::string& svg = out.str();
  for (size_t at = svg.find("<title>"); at != std::string::npos;
       at = svg.find("<title>", at + 1)) {
    const size_t end = svg.find("</title>", at);
    if (svg.compare(svg.find(" y=", end), 8, " y=\"69\" ") == 0) {
      depth1.push_back(svg.substr(at + 7, end - at - 7));
    }
  }
  CHECK(depth1 == std::vector<std::string>{
                      "b (1 samples, 0.00%)", "a (3 samples, 0.00%)",
                      "b (0 samples, 0.00%)", "c (1 samples, 0.00%)",
                      "b (5 samples, 0.00%)", "a (4 samples, 0.00%)"});
}

}  // namespace
}  // namespace flamefold
