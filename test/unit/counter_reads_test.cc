// CounterReads: a sample's counter reads become one sample per counter,
// each of its counter's event, whose period is what the counter counted
// since its last sample.
#include "perfdata/counter_reads.h"

#include <doctest/doctest.h>

#include <map>
#include <vector>

namespace flamefold {
namespace {

// The ids a recording lists, by event: 10 is event 0, 11 event 1.
size_t AttrOf(uint64_t id) {
  static const std::map<uint64_t, size_t> attrs = {{10, 0}, {11, 1}};
  auto it = attrs.find(id);
  return it == attrs.end() ? SIZE_MAX : it->second;
}

struct Reads {
  CounterReads reads;
  std::vector<CounterRead> out;
  // "attr:period" of each sample `values` stand for.
  std::vector<std::string> Of(std::vector<PerfSample::ReadValue> values) {
    reads.Read(values, AttrOf, &out);
    std::vector<std::string> got;
    for (const CounterRead& r : out) {
      got.push_back(std::to_string(r.attr) + ":" + std::to_string(r.period));
    }
    return got;
  }
};

using Got = std::vector<std::string>;

TEST_CASE("a group read is one sample per counter, by what each counted") {
  Reads r;
  CHECK(r.Of({{100, 10}, {7, 11}}) == Got{"0:100", "1:7"});
  CHECK(r.Of({{250, 10}, {10, 11}}) == Got{"0:150", "1:3"});
}

TEST_CASE("a counter that did not move since its last sample gives none") {
  Reads r;
  CHECK(r.Of({{100, 10}, {7, 11}}) == Got{"0:100", "1:7"});
  CHECK(r.Of({{100, 10}, {9, 11}}) == Got{"1:2"});
}

TEST_CASE("an id the recording does not list gives none and keeps nothing") {
  Reads r;
  CHECK(r.Of({{100, 99}, {40, 10}}) == Got{"0:40"});
  CHECK(r.Of({{130, 99}, {50, 10}}) == Got{"0:10"});
  CHECK(r.Of({}) == Got{});
}

}  // namespace
}  // namespace flamefold
