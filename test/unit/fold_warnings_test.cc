// collapse/fold_warnings: what folding lost, said once each, under the
// running tool's name, obeying -q.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/diag.h"
#include "collapse/fold_config.h"
#include "collapse/fold_warnings.h"

using namespace flamefold;

namespace {

// The warnings a Diag would print, in order.
struct Captured {
  Diag diag{"flamereport"};
  std::vector<std::string> warnings;
  Captured() {
    diag.set_handler([this](Diag::Severity s, std::string_view text) {
      if (s == Diag::Severity::kWarning) warnings.emplace_back(text);
    });
  }
};

}  // namespace

TEST_CASE("nothing lost, nothing said") {
  Captured c;
  WarnAboutPerfScript(FoldConfig(), PerfScriptStats(), "cycles", c.diag);
  CHECK(c.warnings.empty());
}

TEST_CASE("each loss is one warning with its count and first place") {
  Captured c;
  PerfScriptStats s;
  s.unrecognized_lines = 3;
  s.first_unrecognized = "in.txt:7: garbage";
  s.samples_other_event = 2;
  s.other_event = "instructions";
  s.paren_frames = 5;
  WarnAboutPerfScript(FoldConfig(), s, "cycles", c.diag);
  REQUIRE(c.warnings.size() == 3);
  CHECK(c.warnings[0] ==
        "3 line(s) not recognised as perf script output were skipped "
        "(first: in.txt:7: garbage)");
  CHECK(c.warnings[1].find("kept only samples of 'cycles'") == 0);
  CHECK(c.warnings[1].find("2 sample(s) of other events (first: "
                           "'instructions')") != std::string::npos);
  CHECK(c.warnings[2].find("5 frame(s) beginning with '('") == 0);
  CHECK(c.warnings[2].find("(--modern fixes this)") != std::string::npos);
}

TEST_CASE("--modern: the Perl script's quirks are not warned about") {
  Captured c;
  FoldConfig config;
  config.perf.modern = true;
  PerfScriptStats s;
  s.paren_frames = 5;
  s.cut_names = 1;
  s.last_sample_dropped = 1;
  WarnAboutPerfScript(config, s, "cycles", c.diag);
  CHECK(c.warnings.empty());
}

TEST_CASE("an --event-filter matching nothing lists the events there are") {
  Captured c;
  FoldConfig config;
  config.perf.event_filter = "cache-misses";
  PerfScriptStats s;
  s.samples_other_event = 4;
  s.other_events = {{"cycles", 3}, {"instructions", 1}};
  WarnAboutPerfScript(config, s, "", c.diag);
  REQUIRE(c.warnings.size() == 1);
  CHECK(c.warnings[0] ==
        "--event-filter 'cache-misses' matched no sample; the input has "
        "'cycles' (3 samples), 'instructions' (1 sample)");
}

TEST_CASE("-q silences the warnings") {
  Captured c;
  c.diag.set_quiet(true);
  PerfScriptStats s;
  s.long_lines = 1;
  s.first_long_line = "x:1";
  WarnAboutPerfScript(FoldConfig(), s, "cycles", c.diag);
  CHECK(c.warnings.empty());
}
