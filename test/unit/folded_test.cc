// collapse/folded: splitting "STACK COUNT" lines as flamegraph.pl does, and
// reading folded input into a sample sink.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collapse/folded.h"
#include "collapse/stack_trie.h"
#include "test_util.h"

using namespace flamefold;

namespace {

struct Split {
  bool ok;
  std::string stack, count;
};

Split SplitLine(std::string_view line) {
  std::string_view stack, count;
  bool ok = SplitFoldedLine(line, &stack, &count);
  return {ok, std::string(stack), std::string(count)};
}

// Folds `text` as flamesvg reads folded input; returns the sorted lines.
std::string Read(const std::string& text, FoldedStats* stats,
                 const StackLimits& limits = StackLimits(),
                 size_t chunk = SIZE_MAX) {
  StringInterner names;
  StackTrie trie(&names);
  StringSource src(text, chunk);
  LineReader reader(&src);
  std::string err;
  if (!ReadFolded(&reader, &names, &trie, stats, &err, limits)) {
    return "ERROR: " + err;
  }
  return testing::FoldedText(trie);
}

}  // namespace

TEST_CASE("SplitFoldedLine: the count is the last run of digits after a space") {
  Split s = SplitLine("java;main;foo 12");
  CHECK(s.ok);
  CHECK(s.stack == "java;main;foo");
  CHECK(s.count == "12");
  CHECK(SplitLine("a;b 2.5").count == "2.5");
  CHECK(SplitLine("a;b 3.").count == "3.");
  s = SplitLine(" 7");
  CHECK(s.ok);
  CHECK(s.stack.empty());
  // Only one white-space character goes; the others stay in the stack.
  CHECK(SplitLine("a;b  5").stack == "a;b ");
  CHECK(SplitLine("a;b\t5").stack == "a;b");
  // Names may hold spaces and digits.
  s = SplitLine("a b;c 9 10");
  CHECK(s.stack == "a b;c 9");
  CHECK(s.count == "10");
}

TEST_CASE("SplitFoldedLine refuses lines without such a count") {
  CHECK_FALSE(SplitLine("a;b").ok);
  CHECK_FALSE(SplitLine("a;b 1e3").ok);
  CHECK_FALSE(SplitLine("").ok);
  CHECK_FALSE(SplitLine("a;b .5").ok);
  CHECK_FALSE(SplitLine("a;b 5 ").ok);
  CHECK_FALSE(SplitLine("a;b5").ok);
}

TEST_CASE("InternFrames: one id per ';' piece, empty pieces included") {
  StringInterner names;
  std::vector<SymbolId> frames;
  InternFrames("a;;b", &names, &frames);
  REQUIRE(frames.size() == 3);
  CHECK(names.Get(frames[0]) == "a");
  CHECK(names.Get(frames[1]).empty());
  CHECK(names.Get(frames[2]) == "b");
  InternFrames("a", &names, &frames);
  CHECK(frames.size() == 4);
  CHECK(frames[3] == frames[0]);
}

TEST_CASE("ReadFolded sums equal stacks and counts bad lines") {
  FoldedStats stats;
  std::string out = Read("b;c 2\na 1\nnot a line\nb;c 3\n\na 1.5\n", &stats);
  CHECK(out == "a 2.5\nb;c 5\n");
  CHECK(stats.lines == 6);
  CHECK(stats.invalid_lines == 2);
  CHECK(stats.first_invalid_line == 3);
  CHECK(FirstInvalidWhere(stats) == "line 3");
  stats.first_invalid_file = "x.folded";
  CHECK(FirstInvalidWhere(stats) == "x.folded:3");
}

TEST_CASE("ReadFolded gives the same result whatever the read sizes") {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += "p;f" + std::to_string(i % 17) + ";g " + std::to_string(i) + "\n";
  }
  FoldedStats whole, bytewise;
  CHECK(Read(text, &whole) == Read(text, &bytewise, StackLimits(), 1));
  CHECK(whole.lines == 300);
  CHECK(bytewise.invalid_lines == 0);
}

TEST_CASE("ReadFolded cuts stacks deeper than the limit, and counts them") {
  StackLimits limits;
  limits.max_depth = 2;
  FoldedStats stats;
  CHECK(Read("a;b;c;d 1\na;b 2\n", &stats, limits) == "a;b 3\n");
  CHECK(stats.limits.deep_samples == 1);
  CHECK(stats.limits.deepest == 4);
}
