// RecordFeed: the records of a perf.data, read and put in perf's order
// (RecordOrder), handed to the replay one by one. Reading, ordering and
// parsing the samples are a good part of a frame-pointer recording's replay;
// for a recording in memory (a mapped file) they run on a thread of their
// own, the records going over in batches, so that the replay's thread only
// replays.
#ifndef FLAMEFOLD_PERFDATA_RECORD_FEED_H_
#define FLAMEFOLD_PERFDATA_RECORD_FEED_H_

#include <cstdint>
#include <string>

#include "perfdata/perf_data.h"

namespace flamefold {

/// What the replay is given: the recording's header, then its records in
/// order. Either may fail (false with `*err`), which ends the feed.
class OrderedRecords {
 public:
  virtual ~OrderedRecords() = default;
  /// Called once, before any record: on the reading thread.
  virtual bool OnHeader(const PerfDataInfo& info, std::string* err) = 0;
  /// Each record but FINISHED_ROUND, in perf's order: on the calling
  /// thread. The record's attr is set (PerfRecord::attr), so that parsing
  /// it never reads the reader's cache. A sample may come parsed (by
  /// PerfDataReader::ParseSample, on the reading thread) in `*parsed`,
  /// whose content the replay may take or swap; nullptr: not parsed (and
  /// then parsing it may fail, as it would have there).
  virtual bool OnOrdered(const PerfRecord& rec, PerfSample* parsed,
                         std::string* err) = 0;
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
/// order, with `threaded` reading and ordering on another thread (only
/// for a reader of bytes in memory, whose records stay readable; the
/// header's info must not change once records come, as in file mode).
/// The records given are the same either way, and so is the first error:
/// one from `replay` for a record before the one the reader failed on
/// wins. False with `*err` on an error of either (the counts are then
/// those of the records read, which may go past the one that failed).
bool FeedRecords(PerfDataReader* reader, OrderedRecords* replay,
                 bool threaded, RecordCounts* counts, std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_RECORD_FEED_H_
