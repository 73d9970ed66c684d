#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/output.h"
#include "cli/flamereport_cli.h"
#include "report/report_format.h"
#include "report/report_stats.h"

using namespace flamefold;

namespace {
void Add(StringInterner* names, StackTrie* trie,
         std::vector<std::string> frames, uint64_t n) {
  std::vector<SymbolId> ids;
  for (auto& f : frames) ids.push_back(names->Intern(f));
  trie->Add(ids, PerlNumber::FromUint(n));
}

const FunctionStat* Find(const ProfileSummary& s, const std::string& name) {
  for (const FunctionStat& f : s.functions()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("self and total; recursion counts a stack once in total") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "f", "g", "f"}, 3);
  Add(&names, &trie, {"p", "main", "f"}, 2);
  Add(&names, &trie, {"p", "main"}, 1);
  Add(&names, &trie, {"q", "f"}, 4);
  Add(&names, &trie, {"q"}, 5);  // a process with no function frame
  ProfileSummary s(trie);
  CHECK(s.total_samples().ToString() == "15");
  CHECK(s.distinct_stacks() == 5);
  REQUIRE(s.processes().size() == 2);
  CHECK(s.processes()[0].name == "q");  // 9 samples
  CHECK(s.processes()[1].samples.ToString() == "6");
  const FunctionStat* f = Find(s, "f");
  REQUIRE(f);
  CHECK(f->self.ToString() == "9");   // 3 + 2 + 4
  CHECK(f->total.ToString() == "9");  // not 12: f;g;f counts once
  CHECK(Find(s, "main")->total.ToString() == "6");
  CHECK(Find(s, "g")->self.ToString() == "0");
  CHECK(Find(s, "g")->total.ToString() == "3");
  CHECK(Find(s, "p") == nullptr);  // processes are not functions
  std::vector<size_t> by_self = s.RankBySelf(0);
  REQUIRE(by_self.size() == 3);
  CHECK(s.functions()[by_self[0]].name == "f");
  CHECK(s.functions()[by_self[1]].name == "main");  // 1, ahead of g's 0
  std::vector<size_t> by_total = s.RankByTotal(2);
  REQUIRE(by_total.size() == 2);
  CHECK(s.functions()[by_total[0]].name == "f");
  CHECK(s.functions()[by_total[1]].name == "main");
}

TEST_CASE("ties are broken by name") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "zeta"}, 2);
  Add(&names, &trie, {"p", "alpha"}, 2);
  Add(&names, &trie, {"p", "mid"}, 2);
  ProfileSummary s(trie);
  std::vector<size_t> r = s.RankBySelf(0);
  CHECK(s.functions()[r[0]].name == "alpha");
  CHECK(s.functions()[r[1]].name == "mid");
  CHECK(s.functions()[r[2]].name == "zeta");
  // The first N alone (only they are sorted): the same first N.
  std::vector<size_t> top = s.RankBySelf(2);
  REQUIRE(top.size() == 2);
  CHECK(s.functions()[top[0]].name == "alpha");
  CHECK(s.functions()[top[1]].name == "mid");
  std::vector<size_t> by_total = s.RankByTotal(1);
  REQUIRE(by_total.size() == 1);
  CHECK(s.functions()[by_total[0]].name == "alpha");
}

TEST_CASE("callees merge every call site, heaviest first, trimmed") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "f", "a", "x"}, 5);
  Add(&names, &trie, {"p", "other", "f", "a", "y"}, 2);
  Add(&names, &trie, {"p", "other", "f", "b"}, 6);
  Add(&names, &trie, {"p", "main", "f", "c"}, 1);
  Add(&names, &trie, {"p", "main", "f", "f", "c"}, 1);  // recursion
  ProfileSummary s(trie);
  size_t f = 0;
  while (s.functions()[f].name != "f") ++f;
  std::vector<CallNode> t = s.Callees(f, 2, 2);
  REQUIRE(t.size() == 2);
  CHECK(t[0].name == "a");
  CHECK(t[0].samples.ToString() == "7");
  REQUIRE(t[0].children.size() == 2);
  CHECK(t[0].children[0].name == "x");
  CHECK(t[1].name == "b");  // 6; c (1) and f (1) were trimmed
  CHECK(s.Callees(f, 1, 5)[0].children.empty());
}

// Who calls a leaf hotspot is what the user needs, so its caller tree is
// never empty. Callers merge every stack from the function's outermost call,
// so recursion does not make a function its own caller, and the chain ends at
// the process frame.
TEST_CASE("callers: merged, outermost call, ending at the process") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "a", "leaf"}, 5);
  Add(&names, &trie, {"p", "main", "b", "leaf"}, 2);
  Add(&names, &trie, {"p", "other", "a", "leaf"}, 1);
  Add(&names, &trie, {"p", "leaf"}, 3);                  // called by no one
  Add(&names, &trie, {"p", "main", "leaf", "leaf"}, 4);  // recursion
  ProfileSummary s(trie);
  size_t leaf = 0;
  while (s.functions()[leaf].name != "leaf") ++leaf;
  std::vector<CallNode> t = s.Callers({leaf}, 2, 3)[0];
  REQUIRE(t.size() == 3);
  CHECK(t[0].name == "a");  // 6
  CHECK(t[0].samples.ToString() == "6");
  REQUIRE(t[0].children.size() == 2);
  CHECK(t[0].children[0].name == "main");  // 5, then other 1
  CHECK(t[0].children[1].name == "other");
  CHECK(t[1].name == "main");  // 4: the outer leaf of leaf;leaf
  CHECK(!t[1].process);
  REQUIRE(t[1].children.size() == 1);
  CHECK(t[1].children[0].name == "p");
  CHECK(t[1].children[0].process);
  CHECK(t[2].name == "p");  // 3: the process itself; b (2) trimmed
  CHECK(t[2].process);
  CHECK(t[2].children.empty());
  // A function named as the process is not merged with it.
  StackTrie same(&names);
  Add(&names, &same, {"p", "p", "f"}, 1);
  Add(&names, &same, {"p", "f"}, 1);
  ProfileSummary s2(same);
  size_t f = 0;
  while (s2.functions()[f].name != "f") ++f;
  std::vector<CallNode> u = s2.Callers({f}, 1, 5)[0];
  REQUIRE(u.size() == 2);
  CHECK((u[0].name == "p" && !u[0].process));  // ties: functions first
  CHECK((u[1].name == "p" && u[1].process));
  CHECK(s2.Callers({f}, 0, 5)[0].empty());
}

TEST_CASE("formatting: thousands, percentages, CSV and JSON escaping") {
  CHECK(WithThousands(PerlNumber::FromUint(0)) == "0");
  CHECK(WithThousands(PerlNumber::FromUint(999)) == "999");
  CHECK(WithThousands(PerlNumber::FromUint(1234567)) == "1,234,567");
  CHECK(WithThousands(PerlNumber::Parse("1234.5")) == "1,234.5");
  CHECK(FormatPercent(12.345678) == "12.35");
  CHECK(FormatPoints(-0.001) == "+0.00");
  CHECK(FormatPoints(1.5) == "+1.50");
  CHECK(CsvField("plain") == "plain");
  CHECK(CsvField("a,b") == "\"a,b\"");
  CHECK(CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(CsvField("two\nlines") == "\"two\nlines\"");
  CHECK(JsonString("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
  CHECK(JsonString("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
  CHECK(JsonString("bad\xff\xc3") == "\"bad\xef\xbf\xbd\xef\xbf\xbd\"");
  // A cut-off sequence is one U+FFFD, as Python's decoder makes it.
  CHECK(JsonString("\xe2\x82x") == "\"\xef\xbf\xbdx\"");
  CHECK(JsonString("\xed\xa0\x80") ==  // a UTF-16 surrogate is not UTF-8
        "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
}

namespace {
ArgsResult ParseArgs(std::vector<std::string> args, ReportConfig* config,
                     std::string* err) {
  args.insert(args.begin(), "flamereport");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return ParseReportArgs(static_cast<int>(argv.size()), argv.data(), config,
                         err);
}

std::string Report(const StackTrie& trie, ReportFormat format, size_t top,
                   const ReportFacts& facts) {
  ReportConfig config;
  config.format = format;
  config.top = top;
  ProfileSummary summary(trie);
  StringSink out;
  WriteReport(config, summary, facts, &out);
  return out.str();
}

std::string Report(const StackTrie& trie, ReportFormat format, size_t top,
                   const std::string& event = "", uint64_t periods_of = 0) {
  ReportFacts facts;
  facts.event = event;
  facts.samples = periods_of;
  facts.periods = periods_of > 0;
  return Report(trie, format, top, facts);
}
}  // namespace

TEST_CASE("flamereport options: formats, counts, errors") {
  ReportConfig c;
  std::string err;
  CHECK(ParseArgs({"--top=0", "-f", "csv", "--depth", "4", "a", "-"}, &c,
                  &err) == ArgsResult::kRun);
  CHECK(c.top == 0);
  CHECK(c.format == ReportFormat::kCsv);
  CHECK(c.tree_depth == 4);
  CHECK(c.inputs == std::vector<std::string>{"a", "-"});
  ReportConfig d;
  CHECK(ParseArgs({"--form=json", "-n", "3"}, &d, &err) == ArgsResult::kRun);
  CHECK(d.format == ReportFormat::kJson);
  CHECK(d.top == 3);
  CHECK(ParseArgs({"--format", "xml"}, &d, &err) == ArgsResult::kUsageError);
  CHECK(err == "--format is text, csv or json, not 'xml'");
  CHECK(ParseArgs({"--width", "0"}, &d, &err) == ArgsResult::kUsageError);
  CHECK(ParseArgs({"--top", "x"}, &d, &err) == ArgsResult::kUsageError);
  CHECK(ParseArgs({"-h"}, &d, &err) == ArgsResult::kHelp);
  ReportConfig e;
  CHECK(ParseArgs({"-j", "3", "--exclude", "^db;", "--max-line-length=64",
                   "a"}, &e, &err) == ArgsResult::kRun);
  CHECK(e.fold.jobs == 3);
  CHECK(e.fold.exclude == std::vector<std::string>{"^db;"});
  CHECK(e.fold.max_line == 64);
  CHECK(ParseArgs({"--include", "a("}, &e, &err) == ArgsResult::kUsageError);
}

TEST_CASE("CSV: exactly the agreed columns, quoted names, self ranking") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "a,b"}, 3);
  Add(&names, &trie, {"p", "main"}, 1);
  CHECK(Report(trie, ReportFormat::kCsv, 0) ==
        "rank,function,self_samples,self_pct,total_samples,total_pct,"
        "callers,callees\n"
        "1,\"a,b\",3,75.00,3,75.00,main 3,\n"
        "2,main,1,25.00,4,100.00,p (process) 4,\"a,b 3\"\n");
  CHECK(Report(trie, ReportFormat::kCsv, 1) ==
        "rank,function,self_samples,self_pct,total_samples,total_pct,"
        "callers,callees\n"
        "1,\"a,b\",3,75.00,3,75.00,main 3,\n");
  // perf input counts periods; the columns say so.
  CHECK(Report(trie, ReportFormat::kCsv, 1, "cycles", 2) ==
        "rank,function,self_period,self_pct,total_period,total_pct,"
        "callers,callees\n"
        "1,\"a,b\",3,75.00,3,75.00,main 3,\n");
}

TEST_CASE("JSON: header fields, rows and callee trees") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "f"}, 3);
  Add(&names, &trie, {"p", "main"}, 1);
  std::string json = Report(trie, ReportFormat::kJson, 0, "cycles");
  CHECK(json.find("\"total_samples\": 4,") != std::string::npos);
  CHECK(json.find("\"event\": \"cycles\",") != std::string::npos);
  CHECK(json.find("{\"name\":\"p\",\"samples\":4,\"pct\":100.00}") !=
        std::string::npos);
  CHECK(json.find("{\"rank\":2,\"function\":\"main\",\"self_samples\":1,"
                  "\"self_pct\":25.00,\"total_samples\":4,\"total_pct\":"
                  "100.00,\"callers\":[{\"process\":\"p\",\"samples\":4,"
                  "\"pct\":100.00,\"callers\":[]}],"
                  "\"callees\":[{\"function\":\"f\",\"samples\":3,"
                  "\"pct\":75.00,\"callees\":[]}]}") != std::string::npos);
  CHECK(json.find("\"count_unit\": \"samples\",\n  \"unit\": \"samples\",\n"
                  "  \"sample_count\": null,") != std::string::npos);
  CHECK(json.find("\"recordings\": [],") != std::string::npos);
  CHECK(Report(StackTrie(&names), ReportFormat::kJson, 0)
            .find("\"event\": null") != std::string::npos);
  CHECK(Report(trie, ReportFormat::kJson, 0, "cycles", 3)
            .find("\"count_unit\": \"period\",\n  \"unit\": \"period\",\n"
                  "  \"sample_count\": 3,") != std::string::npos);
}

TEST_CASE("text: thousands separators and both tables") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "f"}, 1234567);
  std::string text = Report(trie, ReportFormat::kText, 10);
  CHECK(text.find("Total samples:   1,234,567\n") != std::string::npos);
  CHECK(text.find("Top 2 functions by self samples:") != std::string::npos);
  CHECK(text.find("Top 2 functions by total samples:") != std::string::npos);
  CHECK(text.find("1,234,567  100.00%          0    0.00%  main") !=
        std::string::npos);
  CHECK(text.find("  1,234,567  100.00%  1,234,567  100.00%  f\n"
                  "         called by:\n"
                  "           `- main  1,234,567 (100.00%)\n"
                  "              `- p (process)  1,234,567 (100.00%)\n"
                  "    2") != std::string::npos);  // f calls nothing
  CHECK(text.find("calls:\n           `- f  1,234,567") != std::string::npos);
}

// perf input's counts are sums of periods: 269 samples whose periods sum to
// 2,717,171,690 ns are reported as that period with 269 samples, never as
// "Total samples: 2,717,171,690".
TEST_CASE("text: perf periods are called periods, with the samples") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "f"}, 2717171690);
  std::string text = Report(trie, ReportFormat::kText, 10, "cpu-clock", 269);
  CHECK(text.find("Total samples") == std::string::npos);
  CHECK(text.rfind("Total period:    2,717,171,690 ns (2.717 s)\n"
                   "Samples:         269\n"
                   "Counts:          sums of the cpu-clock sample periods "
                   "(ns), not numbers of samples\n", 0) == 0);
  CHECK(text.find("Top 2 functions by self CPU time (ns):") !=
        std::string::npos);
  std::string cycles = Report(trie, ReportFormat::kText, 10, "cycles", 269);
  CHECK(cycles.rfind("Total period:    2,717,171,690\n", 0) == 0);
  CHECK(cycles.find("Top 2 functions by self period:") != std::string::npos);
}

// The unit of the counts, in every format: bytes of a --weight field that
// names them, the time blocked of off-CPU folds (and CPU time beside it),
// else samples or periods.
TEST_CASE("report: the counts' unit") {
  StringInterner names;
  StackTrie trie(&names);
  Add(&names, &trie, {"p", "main", "f"}, 2500);
  struct Case {
    const char* event;
    const char* weight_field;
    const char* off_cpu_unit;
    bool on_off;
    const char* heading;  // of the tables
    const char* totals;   // the text's first lines
    const char* column;   // CSV suffix and JSON "unit"
  };
  const Case cases[] = {
      {"probe_libc:malloc", "bytes", "", false, "bytes",
       "Total bytes:     2,500\nSamples:         10\nCounts:          sums of "
       "the samples' bytes field, not numbers of samples\n",
       "bytes"},
      {"sched:sched_switch", "", "us", false, "time blocked (us)",
       "Total blocked:   2,500 us (2.500 ms)\nSamples:         10\n"
       "Counts:          time blocked off the CPU, summed per stack (us), "
       "not numbers of samples\n",
       "us"},
      {"sched:sched_switch", "", "ms", false, "time blocked (ms)",
       "Total blocked:   2,500 ms (2.500 s)\n", "ms"},
      {"cpu-clock", "", "us", true, "time on and off the CPU (us)",
       "Total time:      2,500 us (2.500 ms)\nSamples:         10\n"
       "Counts:          CPU time and time blocked off the CPU, summed per "
       "stack (us), not numbers of samples\n",
       "us"},
      {"task-clock:u", "", "", false, "CPU time (ns)",
       "Total period:    2,500 ns (0.003 ms)\n", "ns"},
      {"kmem:kmalloc", "len", "", false, "period", "Total period:    2,500\n",
       "period"},
  };
  for (const Case& c : cases) {
    ReportFacts facts;
    facts.event = c.event;
    facts.samples = 10;
    facts.periods = true;
    facts.weight_field = c.weight_field;
    facts.off_cpu_unit = c.off_cpu_unit;
    facts.on_off = c.on_off;
    CAPTURE(c.heading);
    CHECK(UnitOf(facts).heading == c.heading);
    std::string text = Report(trie, ReportFormat::kText, 10, facts);
    CHECK(text.rfind(c.totals, 0) == 0);
    CHECK(text.find(std::string("functions by self ") + c.heading + ":") !=
          std::string::npos);
    std::string column = c.column;
    CHECK(Report(trie, ReportFormat::kCsv, 1, facts)
              .rfind("rank,function,self_" + column + ",self_pct,total_" +
                         column + ",",
                     0) == 0);
    CHECK(Report(trie, ReportFormat::kJson, 1, facts)
              .find("\"count_unit\": \"period\",\n  \"unit\": \"" + column +
                    "\",") != std::string::npos);
  }
  CHECK(UnitOf(ReportFacts()).heading == "samples");
}

TEST_CASE("report: callees of every function of a 100,000-deep stack") {
  StringInterner names;
  StackTrie trie(&names);
  std::vector<SymbolId> ids{names.Intern("prog")};
  const int kDepth = 100000;
  for (int i = 0; i < kDepth; ++i) {
    // Appended: "f" + std::string&& makes GCC 12 warn (-Wrestrict, bug 105329).
    ids.push_back(names.Intern(std::string("f").append(std::to_string(i))));
  }
  trie.Add(ids, PerlNumber::FromUint(5));
  ProfileSummary s(trie);
  REQUIRE(s.functions().size() == kDepth);
  std::vector<size_t> all = s.RankBySelf(0);
  REQUIRE(all.size() == kDepth);
  auto trees = s.Callees(all, 2, 3);
  REQUIRE(trees.size() == all.size());
  size_t checked = 0;
  for (size_t r = 0; r < all.size(); ++r) {
    const std::string& name = s.functions()[all[r]].name;
    int i = std::stoi(name.substr(1));
    if (i == kDepth - 1) {  // the leaf: no callees
      CHECK(trees[r].empty());
      continue;
    }
    REQUIRE(trees[r].size() == 1);
    if (trees[r][0].name != std::string("f").append(std::to_string(i + 1)) ||
        trees[r][0].samples.ToString() != "5" ||
        trees[r][0].children.size() != (i + 2 < kDepth ? 1u : 0u)) {
      FAIL("wrong callees of " << name);
    }
    ++checked;
  }
  CHECK(checked == kDepth - 1);
  auto callers = s.Callers(all, 2, 3);
  for (size_t r = 0; r < all.size(); ++r) {
    int i = std::stoi(s.functions()[all[r]].name.substr(1));
    std::string want =
        i == 0 ? "prog" : std::string("f").append(std::to_string(i - 1));
    REQUIRE(callers[r].size() == 1);
    if (callers[r][0].name != want || callers[r][0].process != (i == 0) ||
        callers[r][0].children.size() != (i >= 1 ? 1u : 0u)) {
      FAIL("wrong callers of f" << i);
    }
  }
}

TEST_CASE("CSV fields are valid UTF-8 whatever the name") {
  CHECK(CsvField("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(CsvField("bad\xFFname") == "bad\xEF\xBF\xBDname");
  CHECK(CsvField("a,\xC3") == "\"a,\xEF\xBF\xBD\"");
  CHECK(CsvField("\xE2\x82") == "\xEF\xBF\xBD");  // one maximal subpart
  CHECK(JsonString("x\x01\xFF\"") == "\"x\\u0001\xEF\xBF\xBD\\\"\"");
}
