// ReadDiffSide: one side of a flamediff, folded text read as difffolded.pl
// reads it, perf script text folded as flamefold folds it.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "base/diag.h"
#include "collapse/fold_config.h"
#include "differential/diff_input.h"
#include "differential/diff_table.h"
#include "temp_file.h"

using namespace flamefold;
using flamefold::testing::TempFile;

namespace {
// The table's rows, "STACK BEFORE AFTER" by stack.
std::map<std::string, std::string> Rows(const DiffTable& t) {
  std::map<std::string, std::string> rows;
  t.Visit([&](std::string_view stack, const PerlNumber* counts) {
    rows[std::string(stack)] =
        counts[0].ToString() + " " + counts[1].ToString();
  });
  return rows;
}

struct Side {
  bool ok = false;
  std::string err;
  DiffSideStats stats;
  std::vector<std::string> messages;
};

Side Read(const std::string& file, int side, bool strip_hex, DiffTable* t) {
  Side s;
  Diag diag("flamediff");
  diag.set_handler([&](Diag::Severity, std::string_view text) {
    s.messages.emplace_back(text);
  });
  FoldConfig fold;
  s.ok = ReadDiffSide(file, side, strip_hex, fold, diag, t, &s.stats, &s.err);
  return s;
}
}  // namespace

TEST_CASE("folded lines add to their side; a line without a count is the "
          "empty stack") {
  TempFile before("a;b 3\na;b 2\nno count here\na;c 1.5\n");
  TempFile after("a;b 7\nd 1\n");
  DiffTable t;
  Side s0 = Read(before.path, 0, false, &t);
  REQUIRE(s0.ok);
  CHECK(s0.stats.invalid_lines == 1);
  CHECK(s0.stats.first_invalid == 3);
  REQUIRE(Read(after.path, 1, false, &t).ok);
  std::map<std::string, std::string> want = {
      {"a;b", "5 7"}, {"a;c", "1.5 0"}, {"d", "0 1"}, {"", "0 0"}};
  CHECK(Rows(t) == want);
  CHECK(t.total(0).ToString() == "6.5");
  CHECK(t.total(1).ToString() == "8");
}

TEST_CASE("-s strips hex addresses before stacks are matched") {
  TempFile before("f+0x10;g 1\nf+0x2a;g 2\n");
  DiffTable t;
  REQUIRE(Read(before.path, 0, true, &t).ok);
  std::map<std::string, std::string> want = {{"f+0x...;g", "3 0"}};
  CHECK(Rows(t) == want);
}

TEST_CASE("perf script text is folded as stackcollapse-perf.pl folds it") {
  TempFile script(
      "app 12 [000] 1.000000: 1 cycles: \n"
      "\t    401000 leaf+0x10 (/usr/bin/app)\n"
      "\t    401100 main+0x20 (/usr/bin/app)\n"
      "\n"
      "app 12 [000] 1.000100: 1 cycles: \n"
      "\t    401000 leaf+0x14 (/usr/bin/app)\n"
      "\t    401100 main+0x20 (/usr/bin/app)\n"
      "\n");
  DiffTable t;
  Side s = Read(script.path, 1, false, &t);
  REQUIRE(s.ok);
  std::map<std::string, std::string> want = {{"app;main;leaf", "0 2"}};
  CHECK(Rows(t) == want);
}

TEST_CASE("an unreadable file, or perf script text whose lines hold no "
          "sample, is an error naming the file") {
  DiffTable t;
  Side missing = Read("/nonexistent/before.folded", 0, false, &t);
  CHECK_FALSE(missing.ok);
  CHECK(missing.err.rfind("/nonexistent/before.folded: ", 0) == 0);
  TempFile junk("\t    401000 f+0x1 (/x)\n@@@ garbage\n\n");
  Side bad = Read(junk.path, 0, false, &t);
  CHECK_FALSE(bad.ok);
  CHECK(bad.err == junk.path + ": no samples found: 1 line(s) are neither "
                               "perf script output nor folded stacks (first: " +
                               junk.path + ":2: @@@ garbage)");
  CHECK(t.size() == 0);
}

TEST_CASE("a side with no sample is warned of, unless it is folded text") {
  TempFile empty("");
  TempFile headless("\t    401000 leaf+0x10 (/usr/bin/app)\n\n");
  TempFile zero_folded("a 0\n");
  for (const TempFile* f : {&empty, &headless}) {
    DiffTable t;
    Side s = Read(f->path, 0, false, &t);
    REQUIRE(s.ok);
    FoldConfig fold;
    std::vector<std::string> said;
    Diag diag("flamediff");
    diag.set_handler([&](Diag::Severity, std::string_view text) {
      said.emplace_back(text);
    });
    WarnAboutDiffSide(f->path, s.stats, fold, diag);
    CHECK(said == std::vector<std::string>{f->path +
                                           ": no samples in the input"});
  }
  DiffTable t;
  Side s = Read(zero_folded.path, 0, false, &t);
  REQUIRE(s.ok);
  std::vector<std::string> said;
  Diag diag("flamediff");
  diag.set_handler([&](Diag::Severity, std::string_view text) {
    said.emplace_back(text);
  });
  WarnAboutDiffSide(zero_folded.path, s.stats, FoldConfig(), diag);
  CHECK(said.empty());
}

TEST_CASE("a sample with no frames is its process name, as in the Perl "
          "script") {
  TempFile headers_only("app 12 [000] 1.000000: 1 cycles: \n\n");
  DiffTable t;
  REQUIRE(Read(headers_only.path, 0, false, &t).ok);
  std::map<std::string, std::string> want = {{"app", "1 0"}};
  CHECK(Rows(t) == want);
}
