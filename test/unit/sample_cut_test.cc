// Where perf script text is cut into chunks: just after its last empty
// line, found from the end, and for text that grows, only in what came
// since the last look, an empty line across two looks included.
#include <doctest/doctest.h>

#include <string>

#include "collapse/sample_cut.h"

namespace flamefold {
namespace {

constexpr size_t kNone = std::string_view::npos;

TEST_CASE("AfterLastEmptyLine: just after the last \"\\n\\n\"") {
  CHECK(AfterLastEmptyLine("") == kNone);
  CHECK(AfterLastEmptyLine("\n") == kNone);
  CHECK(AfterLastEmptyLine("\n\n") == 2);
  CHECK(AfterLastEmptyLine("a\nb\n") == kNone);
  CHECK(AfterLastEmptyLine("a\n\nb\n") == 3);
  CHECK(AfterLastEmptyLine("a\n\nb\n\nc") == 6);
  CHECK(AfterLastEmptyLine("a\n\n\n") == 4);  // the last of three
  CHECK(AfterLastEmptyLine("\n\nx\ny\nz") == 2);
}

TEST_CASE("CutFinder: a growing text is scanned once, empty lines across looks found") {
  const std::string text = "s1\n\tf\n\ns2\n\tg\n\ns3\n\th\n";
  SUBCASE("each look one byte longer") {
    CutFinder finder;
    for (size_t n = 0; n <= text.size(); ++n) {
      CHECK(finder.Find(std::string_view(text).substr(0, n)) ==
            AfterLastEmptyLine(std::string_view(text).substr(0, n)));
    }
  }
  SUBCASE("an empty line split between two looks") {
    CutFinder finder;
    CHECK(finder.Find("s1\n\tf\n") == kNone);
    CHECK(finder.Find("s1\n\tf\n\n") == 7);
  }
  SUBCASE("what was scanned is not scanned again") {
    CutFinder finder;
    // A text whose front holds an empty line the finder is told it has
    // seen none of: only the part after the last look is searched.
    CHECK(finder.Find("abcdef") == kNone);
    CHECK(finder.Find("a\n\ndefgh") == kNone);
    finder.Reset();
    CHECK(finder.Find("a\n\ndefgh") == 3);
  }
}

}  // namespace
}  // namespace flamefold
