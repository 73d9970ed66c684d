// RecordOrder: records in perf's time order, flushed round by round.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "perfdata/record_order.h"

using flamefold::PerfRecord;
using flamefold::RecordOrder;

namespace {

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
