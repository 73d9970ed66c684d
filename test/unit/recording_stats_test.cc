// The recording's facts as --stats and flamereport give them: its events
// and their samples, the frames without a symbol by DSO, the DWARF walks
// that ended early, its host and command line.
#include "perfdata/recording_stats.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace flamefold {
namespace {

PerfAttr Event(std::string name, uint32_t type, uint64_t config) {
  PerfAttr a;
  a.name = std::move(name);
  a.type = type;
  a.config = config;
  return a;
}

TEST_CASE("events with their samples; perf's dummy event only with some") {
  PerfAttr cycles = Event("cycles", 0, 0);  // hardware
  cycles.flags |= 1ULL << 10;               // freq: -F 4000
  cycles.sample_period = 4000;
  PerfAttr dummy = Event("dummy:u", 1, 9);  // software, PERF_COUNT_SW_DUMMY
  PerfAttr clock = Event("cpu-clock", 1, 0);
  clock.sample_period = 250000;
  PerfDataStats stats;
  CountEvents({cycles, dummy, clock}, {7, 0}, &stats);
  REQUIRE(stats.events.size() == 2);
  CHECK(stats.events[0].name == "cycles");
  CHECK(stats.events[0].freq);
  CHECK(stats.events[0].rate == 4000);
  CHECK(stats.events[0].samples == 7);
  CHECK(stats.events[1].name == "cpu-clock");
  CHECK(!stats.events[1].freq);
  CHECK(stats.events[1].rate == 250000);
  CHECK(stats.events[1].samples == 0);  // past the counts given: none
  PerfDataStats with_dummy;
  CountEvents({dummy}, {3}, &with_dummy);
  REQUIRE(with_dummy.events.size() == 1);
  CHECK(with_dummy.events[0].samples == 3);
}

TEST_CASE("frames without a symbol: their total, DSOs most first") {
  PerfDataStats stats;
  CountNoSymbolFrames({{"[unknown]", 2}, {"/lib/b.so", 5}, {"/lib/a.so", 2}},
                      &stats);
  CHECK(stats.frames_no_symbol == 9);
  using Dsos = std::vector<std::pair<std::string, uint64_t>>;
  CHECK(stats.no_symbol_dsos ==
        Dsos{{"/lib/b.so", 5}, {"/lib/a.so", 2}, {"[unknown]", 2}});
}

TEST_CASE("the walks that ended early, by reason, then DSO") {
  PerfDataStats stats;
  stats.unwound = 10;
  stats.unwind_stopped = 4;
  stats.unwind_stops[{UnwindStop::kNoObject, "[unknown]"}] = 1;
  stats.unwind_stops[{UnwindStop::kNoCfi, "/bin/a"}] = 2;
  stats.unwind_stops[{UnwindStop::kNoCfi, "/lib/c.so"}] = 1;
  std::string no_cfi = UnwindStopName(UnwindStop::kNoCfi);
  std::string no_object = UnwindStopName(UnwindStop::kNoObject);
  CHECK(UnwindStopSummary(stats) ==
        "DWARF unwinding ended early or left the CFI in 4 of 10 unwound "
        "sample(s), so their stacks may be short or wrong: " +
            no_cfi + ": /bin/a (2), /lib/c.so (1); " + no_object +
            ": [unknown] (1)");
}

TEST_CASE("the host, perf and command line of the recording") {
  PerfDataInfo info;
  info.hostname = "build1";
  info.perf_version = "6.1.76";
  info.cmdline = {"/usr/bin/perf", "record", "-g", "make"};
  PerfDataStats stats;
  stats.cmdline = "stale";
  TakeRecordingFacts(info, &stats);
  CHECK(stats.hostname == "build1");
  CHECK(stats.perf_version == "6.1.76");
  CHECK(stats.cmdline == "/usr/bin/perf record -g make");
}

}  // namespace
}  // namespace flamefold
