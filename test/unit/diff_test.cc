#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "differential/diff_table.h"
#include "differential/diff_report.h"
#include "cli/flamediff_cli.h"
#include "base/output.h"

using namespace flamefold;

namespace {
PerlNumber U(uint64_t v) { return PerlNumber::FromUint(v); }

ArgsResult Parse(std::vector<std::string> args, DiffConfig* config,
               std::string* err) {
  args.insert(args.begin(), "flamediff");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return ParseDiffArgs(static_cast<int>(argv.size()), argv.data(), config,
                       err);
}
}  // namespace

TEST_CASE("-s replaces every 0x address, as s/0x[0-9a-fA-F]+/0x.../g") {
  CHECK(StripHexAddresses("f+0x1a2B;g 0xdead;0x") == "f+0x...;g 0x...;0x");
  CHECK(StripHexAddresses("0xg;x0x1") == "0xg;x0x...");
  CHECK(StripHexAddresses("") == "");
}

TEST_CASE("-n scaling truncates like Perl's int(c1 * t2 / t1)") {
  // Expected values printed by perl -e 'print int(A*B/C)'.
  CHECK(ScaleCount(U(3), U(10), U(7)).ToString() == "4");
  CHECK(ScaleCount(U(10), U(21), U(7)).ToString() == "30");
  CHECK(ScaleCount(U(987654321098), U(1845674407370957),
                   U(5000001111111110117))
            .ToString() == "364577579");
  CHECK(ScaleCount(U(7), U(1844674407370955), U(9007199254741004))
            .ToString() == "1");
}

TEST_CASE("the table prints both columns, 0 where missing, sorted by stack") {
  DiffTable t;
  t.Add(1, "b;c", U(2));
  t.Add(0, "a", U(1));
  t.Add(0, "b;c", PerlNumber::Parse("2.5"));
  t.Add(0, "a", U(4));
  t.Add(1, "a ", U(9));  // a trailing space makes another stack
  StringSink out;
  REQUIRE(t.Write(false, &out));
  CHECK(out.str() == "a 5 0\na  0 9\nb;c 2.5 2\n");
  CHECK(t.total(0).ToString() == "7.5");
  StringSink scaled;
  REQUIRE(t.Write(true, &scaled));
  // int(5 * 11 / 7.5) = 7, int(2.5 * 11 / 7.5) = 3.
  CHECK(scaled.str() == "a 7 0\na  0 9\nb;c 3 2\n");
}

TEST_CASE("-n with an empty first profile fails instead of dividing by 0") {
  DiffTable t;
  t.Add(1, "a", U(3));
  StringSink out;
  CHECK_FALSE(t.Write(true, &out));
  CHECK(out.str().empty());
  DiffTable equal;  // equal totals: no scaling, no division
  StringSink out2;
  CHECK(equal.Write(true, &out2));
}

TEST_CASE("arguments follow Getopt::Std: bundles, --; options may follow "
          "the files") {
  DiffConfig c;
  std::string err;
  CHECK(Parse({"-ns", "a", "b"}, &c, &err) == ArgsResult::kRun);
  CHECK(c.normalize);
  CHECK(c.strip_hex);
  CHECK(c.before == "a");
  CHECK(c.after == "b");
  DiffConfig d;
  CHECK(Parse({"--report", "--top=5", "--threshold", "2.5", "-", "b"}, &d,
              &err) == ArgsResult::kRun);
  CHECK(d.report);
  CHECK(d.top == 5);
  CHECK(d.threshold == 2.5);
  CHECK(d.before == "-");
  DiffConfig e;
  CHECK(Parse({"--", "-n", "b"}, &e, &err) == ArgsResult::kRun);
  CHECK_FALSE(e.normalize);
  CHECK(e.before == "-n");
  DiffConfig f;
  CHECK(Parse({"a", "b", "-s", "--modern"}, &f, &err) == ArgsResult::kRun);
  CHECK(f.strip_hex);
  CHECK(f.fold.perf.modern);
  CHECK(f.after == "b");
  DiffConfig g;
  CHECK(Parse({"--jobs", "2", "-q", "a", "b"}, &g, &err) == ArgsResult::kRun);
  CHECK(g.fold.jobs == 2);
  CHECK(g.fold.quiet);
  CHECK(Parse({"-j", "2", "a", "b"}, &g, &err) == ArgsResult::kUsageError);
  CHECK(Parse({"a", "b", "c"}, &f, &err) == ArgsResult::kUsageError);
  CHECK(err.find("got 3") != std::string::npos);
  CHECK(Parse({"-nh"}, &f, &err) == ArgsResult::kHelp);
  CHECK(Parse({"-nz", "a", "b"}, &f, &err) == ArgsResult::kUsageError);
  CHECK(err == "Unknown option: z");
  CHECK(Parse({"-v", "a", "b"}, &f, &err) == ArgsResult::kUsageError);
  CHECK(err == "Unknown option: v");
}

TEST_CASE("report: regressions first by growth, then the largest drops") {
  StringInterner n1, n2;
  StackTrie before(&n1), after(&n2);
  auto add = [](StringInterner* n, StackTrie* t,
                std::vector<std::string> frames, uint64_t c) {
    std::vector<SymbolId> ids;
    for (auto& f : frames) ids.push_back(n->Intern(f));
    t->Add(ids, U(c));
  };
  add(&n1, &before, {"p", "main", "a"}, 50);
  add(&n1, &before, {"p", "main", "b"}, 50);
  add(&n2, &after, {"p", "main", "a"}, 20);
  add(&n2, &after, {"p", "main", "b"}, 60);
  add(&n2, &after, {"p", "main", "c"}, 20);
  ProfileSummary sb(before), sa(after);
  std::vector<FunctionChange> ch = CompareProfiles(sb, sa);
  REQUIRE(ch.size() == 3);  // main is 100% on both sides: unchanged
  CHECK(ch[0].name == "c");  // +20 points
  CHECK(ch[1].name == "b");  // +10
  CHECK(ch[2].name == "a");  // -30
  CHECK(ch[2].self_delta() == doctest::Approx(-30));
  CHECK(Regressions(ch, 10).size() == 1);
  CHECK(Regressions(ch, 9.99).size() == 2);
}
