// flamescope's page data: the cells and runs BuildScopeData makes from
// timed samples, checked against a count made here sample by sample, and
// the page kept well-formed whatever the frame names.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "flamegraph/scope_page.h"

namespace flamefold {
namespace {

struct Input {
  uint64_t time_ns;
  std::vector<std::string> frames;
  uint64_t weight;
};

// Feeds `inputs` to a ScopeSamples, each frame interned in `names`.
void Feed(const std::vector<Input>& inputs, StringInterner* names,
          ScopeSamples* samples) {
  for (const Input& in : inputs) {
    std::vector<SymbolId> ids;
    for (const std::string& f : in.frames) ids.push_back(names->Intern(f));
    TimedSample s;
    s.time_ns = in.time_ns;
    s.frames = ids;
    s.weight = PerlNumber::FromUint(in.weight);
    samples->OnTimedSample(s);
  }
  samples->Flush();
}

bool KeepAll(std::string_view line, std::string* out) {
  *out = std::string(line);
  return true;
}

std::vector<Input> Generated(int n) {
  std::vector<Input> inputs;
  uint64_t seed = 7;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 11;
  };
  const char* leaves[] = {"read", "write", "poll", "drop_me", "idle"};
  for (int i = 0; i < n; ++i) {
    // About 7 seconds from 1234.56 s, in no order.
    uint64_t t = 1234560000000ull + next() % 7000000000ull;
    Input in{t, {"app", (next() % 2) ? "main" : "worker", leaves[next() % 5]},
             1 + next() % 3};
    inputs.push_back(in);
  }
  return inputs;
}

TEST_CASE("Cells hold the samples of their slice of a second") {
  const uint32_t rows = 7;  // not a divisor of a second's nanoseconds
  std::vector<Input> inputs = Generated(5000);
  inputs.push_back({1234000000000ull, {"app", "first"}, 1});      // at a whole second
  inputs.push_back({1234142857143ull, {"app", "edge"}, 1});       // row 1's first ns
  inputs.push_back({1234142857142ull, {"app", "edge"}, 1});       // row 0's last ns
  StringInterner names;
  ScopeSamples samples;
  Feed(inputs, &names, &samples);
  ScopeData data;
  std::string err;
  auto drop = [](std::string_view line, std::string* out) {
    if (line.find("drop_me") != std::string_view::npos) return false;
    // A rewrite that makes two stacks one: "worker" becomes "main".
    std::string s(line);
    size_t at = s.find("worker");
    if (at != std::string::npos) s.replace(at, 6, "main");
    *out = s;
    return true;
  };
  REQUIRE(BuildScopeData(samples, names, rows, drop, &data, &err));
  CHECK(data.base_ns == 1234000000000ull);
  CHECK(data.columns == 8);  // 1234 to 1241
  REQUIRE(data.cell_samples.size() == 8 * rows);

  // Each cell counted here from its bounds: row r of second s holds
  // [s + ceil(r/rows), s + ceil((r+1)/rows)) in nanoseconds.
  std::vector<std::string> lines = data.lines;
  CHECK(std::is_sorted(lines.begin(), lines.end()));
  for (uint64_t col = 0; col < data.columns; ++col) {
    for (uint32_t row = 0; row < rows; ++row) {
      uint64_t lo = 1234000000000ull + col * 1000000000ull +
                    (row * 1000000000ull + rows - 1) / rows;
      uint64_t hi = 1234000000000ull + col * 1000000000ull +
                    ((row + 1) * 1000000000ull + rows - 1) / rows;
      uint64_t count = 0;
      std::map<std::string, uint64_t> weights;
      for (const Input& in : inputs) {
        if (in.time_ns < lo || in.time_ns >= hi) continue;
        std::string line;
        for (const std::string& f : in.frames) {
          line += (line.empty() ? "" : ";") + (f == "worker" ? "main" : f);
        }
        if (line.find("drop_me") != std::string::npos) continue;
        count++;
        weights[line] += in.weight;
      }
      const uint64_t cell = col * rows + row;
      CAPTURE(col);
      CAPTURE(row);
      CHECK(data.cell_samples[cell] == count);
      std::map<std::string, uint64_t> got;
      for (uint64_t r = data.cell_runs[cell]; r < data.cell_runs[cell + 1]; ++r) {
        got[data.lines[data.runs[r].stack]] += data.runs[r].weight.uint_value();
      }
      CHECK(got == weights);
    }
  }
  // The generated samples start in row 3 of second 0: row 0 holds "first"
  // and the last nanosecond before row 1, row 1 its first nanosecond.
  CHECK(data.cell_samples[0] == 2);
  CHECK(data.cell_samples[1] == 1);
  std::vector<uint64_t> seconds = data.PerSecond();
  uint64_t total = 0;
  for (uint64_t n : seconds) total += n;
  uint64_t kept = 0;
  for (const Input& in : inputs) kept += in.frames.back() != "drop_me";
  CHECK(total == kept);
  std::string table = PerSecondTable(data);
  CHECK(table.rfind("SECOND SAMPLES\n0 ", 0) == 0);
  CHECK(table.find("\n7 " + std::to_string(seconds[7]) + "\n") !=
        std::string::npos);
}

TEST_CASE("Samples without a time make no heat map") {
  StringInterner names;
  ScopeSamples samples;
  TimedSample s;
  samples.OnTimedSample(s);
  ScopeData data;
  std::string err;
  CHECK_FALSE(BuildScopeData(samples, names, 50, KeepAll, &data, &err));
  CHECK(err.find("no time") != std::string::npos);
  CHECK(samples.untimed() == 1);
}

TEST_CASE("A span of too many seconds is refused") {
  StringInterner names;
  ScopeSamples samples;
  Feed({{1000000000ull, {"a"}, 1}, {1000000000ull * 2000000, {"a"}, 1}},
       &names, &samples);
  ScopeData data;
  std::string err;
  CHECK_FALSE(BuildScopeData(samples, names, 50, KeepAll, &data, &err));
  CHECK(err.find("span 2000000 seconds: too many") != std::string::npos);
  // The most seconds a heat map takes.
  ScopeSamples longest;
  Feed({{1000000000ull, {"a"}, 1}, {1000000000ull * kMaxScopeSeconds, {"a"}, 1}},
       &names, &longest);
  CHECK(BuildScopeData(longest, names, 50, KeepAll, &data, &err));
  CHECK(data.columns == kMaxScopeSeconds);
}

TEST_CASE("The page stays well-formed whatever the names") {
  StringInterner names;
  ScopeSamples samples;
  const std::string hostile[] = {"</script><script>alert(1)</script>",
                                 "\"quoted\" 'single' & <b>",
                                 std::string("bad\xff\xfe utf8"),
                                 "<!-- comment", "back\\slash\ttab"};
  std::vector<Input> inputs;
  for (int i = 0; i < 5; ++i) {
    inputs.push_back({5000000000ull + i * 300000000ull, {"app", hostile[i]}, 1});
  }
  Feed(inputs, &names, &samples);
  ScopeData data;
  std::string err;
  REQUIRE(BuildScopeData(samples, names, 50, KeepAll, &data, &err));
  StringSink sink;
  ScopePageOptions options;
  options.title = "</title><script>x</script>";
  options.fold_command = "flamefold '</script>'";
  WriteScopePage(data, options, &sink);
  REQUIRE(sink.Flush());
  const std::string& page = sink.str();
  CHECK(IsValidUtf8(page));
  // Two scripts, each closed once: the data block and the page's script.
  size_t closes = 0;
  for (size_t at = page.find("</script"); at != std::string::npos;
       at = page.find("</script", at + 1)) {
    closes++;
  }
  CHECK(closes == 2);
  const std::string open = "<script type=\"application/json\" id=\"scope-data\">";
  size_t begin = page.find(open);
  REQUIRE(begin != std::string::npos);
  begin += open.size();
  size_t end = page.find("</script>", begin);
  std::string json = page.substr(begin, end - begin);
  CHECK(json.find('<') == std::string::npos);
  CHECK(json.find("\\u003c/script>") != std::string::npos);
  CHECK(page.find("<title>&lt;/title&gt;&lt;script&gt;") != std::string::npos);
  CHECK(page.find("<!--") == std::string::npos);
}

}  // namespace
}  // namespace flamefold
