#include "perfdata/ordered_records.h"

#include <utility>

#include "perfdata/perf_abi.h"
#include "perfdata/record_order.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

// The reading side: counts each record, notes its attr and puts it in
// perf's order (RecordOrder), which hands it to `deliver`.
class ReadSide : public PerfDataReader::Visitor {
 public:
  ReadSide(PerfDataReader* reader, OrderedRecords* replay,
           RecordCounts* counts, RecordOrder::Deliver deliver)
      : reader_(reader), replay_(replay), counts_(counts),
        order_(std::move(deliver)) {}

  bool OnHeader(const PerfDataInfo& info, std::string* err) override {
    return replay_->OnHeader(info, err);
  }

  bool OnRecord(const PerfRecord& rec, std::string* err) override {
    counts_->records++;
    PerfRecord r = rec;
    r.attr = static_cast<uint32_t>(reader_->AttrOf(rec));
    if (r.type == abi::kRecordLost || r.type == abi::kRecordLostSamples) {
      if (!CountLost(r, err)) return false;
    }
    if (r.type == abi::kRecordFinishedRound) return order_.FinishRound(err);
    return order_.Add(r, reader_->TimeOf(r), err);
  }

  /// Delivers what is still queued.
  bool Flush(std::string* err) { return order_.Flush(err); }

 private:
  bool CountLost(const PerfRecord& rec, std::string* err) {
    uint64_t lost = 0;
    if (!reader_->ParseLost(rec, &lost, err)) return false;
    if (rec.type == abi::kRecordLost) {
      counts_->lost_records += lost;
      counts_->lost_chunks++;
    } else {
      counts_->lost_samples += lost;
      counts_->lost_samples_recorded = true;
    }
    return true;
  }

  PerfDataReader* reader_;
  OrderedRecords* replay_;
  RecordCounts* counts_;
  RecordOrder order_;
};

}  // namespace

bool FeedRecords(PerfDataReader* reader, OrderedRecords* replay,
                 RecordCounts* counts, std::string* err) {
  ReadSide side(reader, replay, counts,
                [replay](const PerfRecord& rec, std::string* e) {
                  return replay->OnOrdered(rec, e);
                });
  return reader->Read(&side, err) && side.Flush(err);
}

}  // namespace flamefold
