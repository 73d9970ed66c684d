// RecordOrder: perf.data records delivered in the order perf script
// delivers them (perf's ordered events): records with a time are queued
// and delivered in time order (stable), flushed at each FINISHED_ROUND up
// to the newest time of the round before; records without a time (or time
// 0) are delivered at once.
#ifndef FLAMEFOLD_PERFDATA_RECORD_ORDER_H_
#define FLAMEFOLD_PERFDATA_RECORD_ORDER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfdata/perf_data.h"

namespace flamefold {

class RecordOrder {
 public:
  /// Receives a record in order; false (with `*err`) stops the delivery.
  using Deliver = std::function<bool(const PerfRecord&, std::string*)>;

  explicit RecordOrder(Deliver deliver) : deliver_(std::move(deliver)) {}

  /// Takes `rec`, whose time is `time` (0 or UINT64_MAX: none).
  bool Add(const PerfRecord& rec, uint64_t time, std::string* err);
  /// A FINISHED_ROUND record: delivers what the round before queued.
  bool FinishRound(std::string* err);
  /// Delivers everything still queued.
  bool Flush(std::string* err) { return FlushUpTo(UINT64_MAX, err); }

 private:
  // A queued record. Its copy, if any, is held by pointer: a std::string here
  // (a mapped file's records have none) would make each record's moves
  // through the queue copy its bytes.
  struct Queued {
    uint64_t time;
    uint64_t offset;
    std::string_view body;  // the reader's bytes, or *owned
    std::unique_ptr<std::string> owned;  // when the reader's do not stay
    uint32_t type;
    uint32_t attr;
    uint16_t misc;
  };
  using SortKey = std::pair<uint64_t, uint32_t>;  // (time, arrival)

  bool FlushUpTo(uint64_t limit, std::string* err);

  Deliver deliver_;
  std::vector<Queued> queue_, kept_;
  std::vector<SortKey> order_, scratch_;  // FlushUpTo's sort keys
  std::vector<size_t> runs_;
  uint64_t next_flush_ = 0, max_time_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_RECORD_ORDER_H_
