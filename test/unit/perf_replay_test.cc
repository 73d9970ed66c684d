// The replay's parts on their own: perf's record order (RecordOrder) and
// the sample header perf script prints (AppendSampleHeader) for a
// recording's event and sample.
#include <doctest/doctest.h>
#include <linux/perf_event.h>

#include <string>
#include <vector>

#include "perfdata/record_order.h"
#include "collapse/perf_script_lines.h"
#include "perfdata/sample_lines.h"

using flamefold::PerfAttr;
using flamefold::PerfRecord;
using flamefold::PerfSample;
using flamefold::RecordOrder;
using flamefold::SampleHeaderStyle;

namespace {

// The header of sample `s` of event `a` in a thread named `comm`.
void AppendSampleHeader(const PerfAttr& a, const PerfSample& s,
                        std::string_view comm, SampleHeaderStyle style,
                        std::string* out) {
  flamefold::RecordedSample r;
  r.pid = static_cast<int32_t>(s.pid);
  r.tid = static_cast<int32_t>(s.tid);
  r.cpu = static_cast<int32_t>(s.cpu);
  r.time = s.time;
  r.period = s.period;
  r.comm = comm;
  r.chain = (a.sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
  flamefold::AppendSampleHeader(flamefold::SampleLines::EventOf(a), r, style,
                                out);
}

// The records delivered, by their offsets.
struct Delivered {
  std::vector<uint64_t> offsets;
  RecordOrder order{[this](const PerfRecord& rec, std::string*) {
    offsets.push_back(rec.offset);
    return true;
  }};
  void Add(uint64_t offset, uint64_t time) {
    std::string err;
    REQUIRE(order.Add(PerfRecord{0, 0, "body", offset, true}, time, &err));
  }
};

}  // namespace

TEST_CASE("records without a time are delivered at once") {
  Delivered d;
  d.Add(1, 0);
  d.Add(2, UINT64_MAX);
  CHECK(d.offsets == std::vector<uint64_t>{1, 2});
}

TEST_CASE("a round delivers the round before it, in time order, ties in order") {
  Delivered d;
  std::string err;
  d.Add(1, 30);
  d.Add(2, 10);
  d.Add(3, 30);
  REQUIRE(d.order.FinishRound(&err));  // nothing before the first round
  CHECK(d.offsets.empty());
  d.Add(4, 20);
  d.Add(5, 40);
  REQUIRE(d.order.FinishRound(&err));  // up to 30, the first round's newest
  CHECK(d.offsets == std::vector<uint64_t>{2, 4, 1, 3});
  REQUIRE(d.order.Flush(&err));
  CHECK(d.offsets == std::vector<uint64_t>{2, 4, 1, 3, 5});
}

TEST_CASE("a delivery that fails stops the flush") {
  int calls = 0;
  RecordOrder order([&](const PerfRecord&, std::string* err) {
    *err = "bad record";
    return ++calls < 1;
  });
  std::string err;
  REQUIRE(order.Add(PerfRecord{0, 0, "a", 1, false}, 5, &err));
  REQUIRE(order.Add(PerfRecord{0, 0, "b", 2, false}, 6, &err));
  CHECK_FALSE(order.Flush(&err));
  CHECK(err == "bad record");
  CHECK(calls == 1);
}

TEST_CASE("the sample header as perf script prints it") {
  PerfAttr a;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
                  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
  a.name = "cycles";
  PerfSample s;
  s.pid = 12;
  s.tid = 34;
  s.cpu = 3;
  s.time = 1234567891234;  // ns
  s.period = 1001001;
  std::string out;
  AppendSampleHeader(a, s, "java", SampleHeaderStyle{}, &out);
  CHECK(out == "java    34 [003]  1234.567891:    1001001 cycles: ");
  out.clear();
  SampleHeaderStyle style;
  style.name_width = 9;  // "cpu-clock"
  style.pid_tid = true;
  a.sample_type &= ~PERF_SAMPLE_CALLCHAIN;  // the frame follows: "%16s"
  AppendSampleHeader(a, s, "sh", style, &out);
  CHECK(out == "              sh    12/34    [003]  1234.567891:    1001001    cycles: ");
}

// A tracepoint's header has no period (perf script's default fields for
// one). The replay writes the header as text where its fields would not
// read back (a thread that exited, pid -1): perf script printed
//   :-1    -1 [000]  2894.600804: sched:sched_switch: prev_comm=thr ...
// which stackcollapse-perf.pl does not take for a header; with a period
// written before the event, the sample had been folded.
TEST_CASE("a tracepoint's sample header has no period") {
  PerfAttr a;
  a.type = PERF_TYPE_TRACEPOINT;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
                  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
  a.name = "sched:sched_switch";
  PerfSample s;
  s.pid = -1;
  s.tid = -1;
  s.cpu = 0;
  s.time = 2894600804000;
  s.period = 1;
  std::string out;
  AppendSampleHeader(a, s, ":-1", SampleHeaderStyle{}, &out);
  CHECK(out == ":-1    -1 [000]  2894.600804: sched:sched_switch: [fields]");
}
