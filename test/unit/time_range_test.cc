// --time-range: the ranges parsed as perf script --time reads them, the
// malformed ones refused with a reason, and the samples kept.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collapse/time_range.h"

namespace flamefold {
namespace {

using Kind = TimeRangeSpec::Kind;

TimeRangeSpec Parsed(std::string_view text) {
  TimeRangeSpec spec;
  std::string err;
  INFO(text);
  REQUIRE(ParseTimeRange(text, &spec, &err));
  CHECK(err.empty());
  return spec;
}

std::string Refused(std::string_view text) {
  TimeRangeSpec spec;
  std::string err;
  CHECK_FALSE(ParseTimeRange(text, &spec, &err));
  CHECK_FALSE(spec.active());
  return err;
}

std::vector<TimeSpan> Resolved(std::string_view text, uint64_t first,
                               uint64_t last) {
  std::vector<TimeSpan> spans;
  std::string err;
  REQUIRE(ResolveTimeRange(Parsed(text), first, last, &spans, &err));
  return spans;
}

bool Same(const std::vector<TimeSpan>& a, const std::vector<TimeSpan>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].start != b[i].start || a[i].end != b[i].end) return false;
  }
  return true;
}

TEST_CASE("times in seconds, either side open, several ranges") {
  TimeRangeSpec s = Parsed("3450.247735,3451.5");
  CHECK(s.kind == Kind::kAbsolute);
  CHECK(s.text == "3450.247735,3451.5");
  CHECK(Same(s.spans, {{3450247735000, 3451500000000}}));
  CHECK(Same(Parsed("3442.442956415,").spans, {{3442442956415, 0}}));
  CHECK(Same(Parsed(",.5").spans, {{0, 500000000}}));
  CHECK(Same(Parsed("12.,13").spans, {{12000000000, 13000000000}}));
  CHECK(Same(Parsed("1.5,2.0 3.0,4.0").spans,
             {{1500000000, 2000000000}, {3000000000, 4000000000}}));
  CHECK(Same(Parsed("1.5, 2.0  3.0,").spans,
             {{1500000000, 2000000000}, {3000000000, 0}}));
  CHECK(Same(Parsed(",").spans, {{0, 0}}));
}

TEST_CASE("relative times count from the input's first sample") {
  TimeRangeSpec s = Parsed("+0.01,+0.05");
  CHECK(s.kind == Kind::kRelative);
  CHECK(s.NeedsFirstTime());
  CHECK(Same(Resolved("+0.01,+0.05", 3450247735000, 0),
             {{3450257735000, 3450297735000}}));
  CHECK(Same(Resolved("+1,", 1000, 0), {{1000001000, 0}}));
  CHECK(Same(Resolved(",+1 +2,+3 +4,", 1000, 0),
             {{0, 1000001000}, {2000001000, 3000001000}, {4000001000, 0}}));
  CHECK(Same(Resolved("1,2", 5, 0), {{1000000000, 2000000000}}));
}

TEST_CASE("percent slices resolve against the recording's first and last") {
  TimeRangeSpec s = Parsed("10%/2");
  CHECK(s.kind == Kind::kPercent);
  // perf: first + round(fraction * (last - first)), the end 1 ns short
  // unless it is the last time.
  CHECK(Same(Resolved("10%/2", 1000, 2000), {{1100, 1199}}));
  CHECK(Same(Resolved("10%/10", 1000, 2000), {{1900, 2000}}));
  CHECK(Same(Resolved("0%-10%,30%-40%", 1000, 2000),
             {{1000, 1099}, {1300, 1399}}));
  CHECK(Same(Resolved("50%", 1000, 2000), {{1000, 1499}}));
  CHECK(Same(Resolved("10%/2, 10%/3", 1000, 2000), {{1100, 1199}, {1200, 1299}}));
  std::vector<TimeSpan> spans;
  std::string err;
  CHECK_FALSE(ResolveTimeRange(s, 1000, 0, &spans, &err));
  CHECK(err.find("first and last sample times") != std::string::npos);
}

TEST_CASE("malformed ranges are refused with the reason") {
  CHECK(Refused("") == "no range given");
  CHECK(Refused("   ") == "no range given");
  CHECK(Refused("1.5") == "'1.5' is not START,END");
  CHECK(Refused("1,2,3").find("'2,3' is not a time") == 0);
  CHECK(Refused("a,2").find("'a' is not a time in seconds") == 0);
  CHECK(Refused("1.0123456789,2").find("is not a time") != std::string::npos);
  CHECK(Refused("-1,2").find("'-1' is not a time") == 0);
  CHECK(Refused("1e3,2").find("is not a time") != std::string::npos);
  CHECK(Refused(".,2").find("'.' is not a time") == 0);
  CHECK(Refused("99999999999,") .find("is not a time") != std::string::npos);
  CHECK(Refused("2,1") == "'2,1' ends before it starts");
  CHECK(Refused("+1,2") ==
        "relative (+SECONDS) and absolute times cannot be mixed");
  CHECK(Refused("1,3 2,4") ==
        "ranges must be in order and apart: '1,3' and '2,4' are not");
  CHECK(Refused("1,2 2,4").find("in order and apart") != std::string::npos);
  CHECK(Refused("3,4 1,2").find("in order and apart") != std::string::npos);
  CHECK(Refused("1, 3,4").find("'3,4' is not a time") == 0);
  CHECK(Refused("1,2 ,4").find("in order and apart") != std::string::npos);
  CHECK(Refused("10%/0").find("'10%/0' is not a percent slice P%/N") == 0);
  CHECK(Refused("0%/1").find("is not a percent slice") != std::string::npos);
  CHECK(Refused("10%/11").find("is not a percent slice") != std::string::npos);
  CHECK(Refused("10%/x").find("is not a percent slice") != std::string::npos);
  CHECK(Refused("10%/2,0%-5%").find("'0%-5%' is not") == 0);
  CHECK(Refused("0%-110%").find("within 0% to 100%") != std::string::npos);
  CHECK(Refused("40%-10%").find("is not a percent slice P%-Q%") != std::string::npos);
  CHECK(Refused("10").find("is not START,END") != std::string::npos);
  CHECK(Refused("10%x").find("is not a percent slice P%") != std::string::npos);
  CHECK(Refused("0%").find("is not a percent slice P%") != std::string::npos);
  CHECK(Refused("%").find("is not a percent slice") != std::string::npos);
}

TEST_CASE("a sample is kept as perf script --time keeps it") {
  std::vector<TimeSpan> one = {{100, 200}};
  CHECK_FALSE(TimeKept(one, 99));
  CHECK(TimeKept(one, 100));
  CHECK(TimeKept(one, 200));
  CHECK_FALSE(TimeKept(one, 201));
  CHECK(TimeKept(one, 0));  // no time: never dropped
  std::vector<TimeSpan> open_end = {{100, 0}};
  CHECK(TimeKept(open_end, UINT64_MAX - 1));
  CHECK_FALSE(TimeKept(open_end, 99));
  std::vector<TimeSpan> several = {{100, 200}, {300, 0}};
  CHECK(TimeKept(several, 150));
  CHECK_FALSE(TimeKept(several, 250));
  CHECK(TimeKept(several, 300));
  CHECK(TimeKept(several, 1000));
  CHECK_FALSE(TimeKept(several, 50));
  CHECK(TimeKept({}, 5));
}

TEST_CASE("times are written as perf script prints them") {
  CHECK(SecondsText(3450247735000) == "3450.247735");
  CHECK(SecondsText(3442442956415) == "3442.442956415");
  CHECK(SecondsText(5000) == "0.000005");
  CHECK(SecondsText(0) == "0.000000");
}

}  // namespace
}  // namespace flamefold
