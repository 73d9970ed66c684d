// The stack-depth and frame-length limits (stack_limits.h), in the folded
// reader and the perf script parser.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collapse/folded.h"
#include "cli/stack_limit_options.h"
#include "collapse/stack_limits.h"
#include "test_util.h"

using namespace flamefold;
using flamefold::testing::FoldedText;
using flamefold::testing::FoldPerfScript;

namespace {

// Strings are built by appending, never as "literal" + std::string&&: GCC 12
// warns about that (-Wrestrict, a false positive: GCC bug 105329).

std::string FoldFolded(const std::string& text, const StackLimits& limits,
                       FoldedStats* stats) {
  StringInterner names;
  StackTrie trie(&names);
  StringSource src(text);
  LineReader reader(&src);
  std::string err;
  REQUIRE(ReadFolded(&reader, &names, &trie, stats, &err, limits));
  return FoldedText(trie);
}

// One perf script sample: the frames given leaf first, as perf prints them.
std::string Sample(const std::string& comm,
                   const std::vector<std::string>& leaf_first) {
  std::string s = comm + " 1 [000] 1.0: 1 cycles:\n";
  for (size_t i = 0; i < leaf_first.size(); ++i) {
    s += '\t';
    s += std::to_string(4000 + i);
    s += ' ';
    s += leaf_first[i];
    s += " (/bin/prog)\n";
  }
  return s + "\n";
}

std::vector<std::string> Frames(int n) {  // f<n-1> (leaf) ... f0 (root)
  std::vector<std::string> v;
  for (int i = n - 1; i >= 0; --i) v.push_back(std::string("f").append(std::to_string(i)));
  return v;
}

}  // namespace

TEST_CASE("LimitFoldedStack: untouched stacks are not copied") {
  StackLimits limits;
  LimitStats stats;
  std::string scratch;
  std::string_view stack = "a;b;c";
  std::string_view out = LimitFoldedStack(stack, limits, &stats, &scratch);
  CHECK(out.data() == stack.data());
  CHECK(out.size() == stack.size());
  CHECK_FALSE(stats.any());
}

TEST_CASE("LimitFoldedStack keeps the root side and cuts long names") {
  StackLimits limits;
  limits.max_depth = 3;
  limits.max_frame = 4;
  LimitStats stats;
  std::string scratch;
  CHECK(LimitFoldedStack("p;a;b;c;d", limits, &stats, &scratch) == "p;a;b");
  CHECK(stats.deep_samples == 1);
  CHECK(stats.deepest == 5);
  CHECK(stats.long_frames == 0);
  // Names past the depth limit are dropped, not counted as cut.
  CHECK(LimitFoldedStack("p;abcdefgh;b;cccccccccc", limits, &stats,
                         &scratch) == "p;abcd;b");
  CHECK(stats.deep_samples == 2);
  CHECK(stats.long_frames == 1);
  CHECK(stats.longest == 8);
  CHECK(LimitFoldedStack("\xC3\xA9\xC3\xA9\xC3\xA9;x", limits, &stats,
                         &scratch) == "\xC3\xA9\xC3\xA9;x");
  CHECK(stats.long_frames == 2);
  CHECK(LimitFoldedStack("p;a;b", limits, &stats, &scratch) == "p;a;b");
  CHECK(stats.deep_samples == 2);
}

TEST_CASE("the warning says what was cut, per input") {
  StackLimits limits;
  limits.max_depth = 3;
  LimitStats s;
  CHECK(LimitWarning("f", limits, s).empty());
  s.deep_samples = 2;
  s.deepest = 9;
  CHECK(LimitWarning("in.folded", limits, s) ==
        "in.folded: 2 sample(s) had stacks deeper than 3 frames (deepest: "
        "9); each was cut to its 3 frames nearest the root, keeping its "
        "count (see --max-stack-depth)");
  s.long_frames = 1;
  s.longest = 300000;
  CHECK(LimitWarning("x", limits, s).find(
            "; 1 frame name(s) were longer than 262144 bytes (longest: "
            "300000) and were cut (see --max-stack-depth, "
            "--max-frame-length)") != std::string::npos);
  // Since(): counts of one input; a maximum that did not grow is unknown.
  LimitStats before = s;
  s.deep_samples += 1;
  LimitStats d = s.Since(before);
  CHECK(d.deep_samples == 1);
  CHECK(d.deepest == 0);
  CHECK(d.long_frames == 0);
  CHECK(LimitWarning("y", limits, d).find("(deepest") == std::string::npos);
}

TEST_CASE("option values are checked") {
  StackLimits l;
  std::string err;
  CHECK(ParseStackLimit("max-stack-depth", 12, &l, &err));
  CHECK(l.max_depth == 12);
  CHECK_FALSE(ParseStackLimit("max-stack-depth", 0, &l, &err));
  CHECK(err ==
        "--max-stack-depth takes a number of frames, 1 or more, not '0'");
  CHECK_FALSE(ParseStackLimit("max-frame-length", 3, &l, &err));
  CHECK_FALSE(ParseStackLimit("max-frame-length", -5, &l, &err));
  CHECK(err ==
        "--max-frame-length takes a number of bytes, 4 or more, not '-5'");
  CHECK(ParseStackLimit("max-frame-length", 4, &l, &err));
  CHECK(l.max_frame == 4);
}

TEST_CASE("folded input: limits applied and counted, defaults change nothing") {
  FoldedStats stats;
  const std::string text = "p;a 1\np;a;b;c 5\n";
  CHECK(FoldFolded(text, StackLimits(), &stats) == text);
  CHECK_FALSE(stats.limits.any());
  StackLimits limits;
  limits.max_depth = 2;
  limits.max_frame = 4;
  FoldedStats cut;
  CHECK(FoldFolded(text + "proc;verylongname 2\n", limits, &cut) ==
        "p;a 6\nproc;very 2\n");
  CHECK(cut.limits.deep_samples == 1);
  CHECK(cut.limits.deepest == 4);
  CHECK(cut.limits.long_frames == 1);
}

TEST_CASE("perf script: a deep stack keeps its root side and its count") {
  PerfScriptOptions options;
  options.limits.max_depth = 4;  // prog + f0 f1 f2
  PerfScriptStats stats;
  // The same sample three times: each is counted (none comes from the
  // sample cache uncounted), and 10 frames reach the trimming of the
  // frames read (at twice the limit).
  std::string text;
  for (int i = 0; i < 3; ++i) text += Sample("prog", Frames(10));
  text += Sample("prog", Frames(2));
  CHECK(FoldPerfScript(text, options, &stats) ==
        "prog;f0;f1 1\nprog;f0;f1;f2 3\n");
  CHECK(stats.limits.deep_samples == 3);
  CHECK(stats.limits.deepest == 11);
  // Without the limit nothing changes: the default is far away.
  PerfScriptStats plain;
  CHECK(FoldPerfScript(text, {}, &plain).find(
            "prog;f0;f1;f2;f3;f4;f5;f6;f7;f8;f9 3\n") != std::string::npos);
  CHECK_FALSE(plain.limits.any());
}

TEST_CASE("perf script: long frame and command names are cut, each counted") {
  PerfScriptOptions options;
  options.limits.max_frame = 6;
  PerfScriptStats stats;
  std::string text;
  for (int i = 0; i < 3; ++i) {
    text += Sample("longcommand", {"leaf_function_name", "main"});
  }
  CHECK(FoldPerfScript(text, options, &stats) == "longco;main;leaf_f 3\n");
  CHECK(stats.limits.long_frames == 6);  // 3 leaves and 3 commands
  CHECK(stats.limits.longest == 18);
}

// Found by the perf script fuzz target (testdata/bad/srcline-semicolons.*):
// a --srcline source line may hold ';', which the Perl script leaves in the
// frame. The depth limit counts the parser's frames, so such a folded line
// reads as more frames than the limit; the output stays the Perl script's.
TEST_CASE("perf script --srcline: a ';' in a source line stays, one frame") {
  const std::string text =
      "prog 1 [000] 1.0: 1 cycles:\n\t1 leaf (/bin/prog)\n"
      "  a.c;b;c;d;e:1\n\t2 main (/bin/prog)\n  main.c:7\n\n";
  PerfScriptOptions options;
  options.srcline = true;
  CHECK(FoldPerfScript(text, options) ==
        "prog;main:main.c:7;leaf:a.c;b;c;d;e:1 1\n");
  options.limits.max_depth = 2;
  PerfScriptStats stats;
  CHECK(FoldPerfScript(text, options, &stats) == "prog;main:main.c:7 1\n");
  CHECK(stats.limits.deep_samples == 1);
  CHECK(stats.limits.deepest == 3);
}

TEST_CASE("perf script: a sample longer than the sample cache holds folds whole") {
  // 5,000 frame lines: more than the cache keeps for one sample, so its
  // lines are parsed as they come; the output is the same.
  std::string text = Sample("prog", Frames(5000)) + Sample("prog", Frames(5000));
  PerfScriptStats stats;
  std::string out = FoldPerfScript(text, {}, &stats);
  std::string want = "prog";
  for (int i = 0; i < 5000; ++i) want.append(";f").append(std::to_string(i));
  CHECK(out == want + " 2\n");
  CHECK(stats.samples == 2);
  CHECK_FALSE(stats.limits.any());
}

TEST_CASE("limits: --max-line-length is checked as the other limits") {
  StackLimits limits;
  std::string err;
  CHECK(limits.LineLimit(123) == 123);  // unset: the tool's default
  CHECK(ParseStackLimit("max-line-length", 64, &limits, &err));
  CHECK(limits.max_line == 64);
  CHECK(limits.LineLimit(123) == 64);
  CHECK(limits.max_depth == StackLimits::kDefaultMaxDepth);
  CHECK(limits.max_frame == StackLimits::kDefaultMaxFrame);
  CHECK_FALSE(ParseStackLimit("max-line-length", 0, &limits, &err));
  CHECK(err == "--max-line-length takes a number of bytes, 1 or more, not '0'");
}
