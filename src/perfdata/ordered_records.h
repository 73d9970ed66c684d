// OrderedRecords: the records of a perf.data, read and put in perf's order
// (RecordOrder), handed to the replay one by one on the caller's thread.
#ifndef FLAMEFOLD_PERFDATA_ORDERED_RECORDS_H_
#define FLAMEFOLD_PERFDATA_ORDERED_RECORDS_H_

#include <cstdint>
#include <string>

#include "perfdata/perf_data.h"

namespace flamefold {

/// What the replay is given: the recording's header, then its records in
/// order. Either may fail (false with `*err`), which ends the feed.
class OrderedRecords {
 public:
  virtual ~OrderedRecords() = default;
  /// Called once, before any record.
  virtual bool OnHeader(const PerfDataInfo& info, std::string* err) = 0;
  /// Each record but FINISHED_ROUND, in perf's order. The record's attr is
  /// set (PerfRecord::attr), so that parsing it never reads the reader's
  /// cache.
  virtual bool OnOrdered(const PerfRecord& rec, std::string* err) = 0;
};

/// What the feed counts as it reads: every record, and what LOST and
/// LOST_SAMPLES records say the kernel dropped.
struct RecordCounts {
  uint64_t records = 0;
  uint64_t lost_samples = 0;
  bool lost_samples_recorded = false;  // a LOST_SAMPLES record was read
  uint64_t lost_records = 0, lost_chunks = 0;
};

/// Reads every record of `reader` and gives them to `replay` in perf's
/// order. False with `*err` on the first error of either (the counts are
/// then those of the records read, which may go past the one that failed).
bool FeedRecords(PerfDataReader* reader, OrderedRecords* replay,
                 RecordCounts* counts, std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_ORDERED_RECORDS_H_
