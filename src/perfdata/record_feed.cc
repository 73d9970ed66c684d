#include "perfdata/record_feed.h"

#include <condition_variable>
#include <exception>
#include <new>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "base/bounded_queue.h"
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

  /// Called before the reader changes its info after the header.
  std::function<void()> on_info_change;

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

  void OnInfoChange() override {
    if (on_info_change) on_info_change();
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

// Records in order, as they go from the reading thread to the replaying
// one. A record whose bytes do not stay (decompressed, or queued as a copy
// by RecordOrder) goes with a copy of them; a sample whose bytes stay goes
// parsed. A batch comes back empty for reuse, its samples' buffers kept.
struct Batch {
  struct Item {
    PerfRecord rec;
    size_t copy_at = SIZE_MAX;    // its body's offset in `bytes`, if copied
    uint32_t sample = UINT32_MAX;  // into `samples`, if parsed
  };
  std::vector<Item> items;
  std::string bytes;
  std::vector<PerfSample> samples;  // the first `parsed` hold samples
  uint32_t parsed = 0;
  size_t record_bytes = 0;  // of the records' bodies

  void Add(const PerfRecord& rec, const PerfDataReader& reader) {
    Item item{rec};
    record_bytes += rec.body.size();
    if (!rec.stable) {
      item.copy_at = bytes.size();
      bytes.append(rec.body);
    } else if (rec.type == abi::kRecordSample) {
      if (parsed == samples.size()) {
        // Room for most call chains at once (a build host's hold 2 to 6
        // entries, context markers included), rather than three or four
        // allocations as each new sample's grows from empty.
        samples.emplace_back().callchain.reserve(16);
      }
      std::string ignored;  // the replay parses it again, and says why
      if (reader.ParseSample(rec, &samples[parsed], &ignored)) {
        item.sample = parsed++;
      }
    }
    items.push_back(item);
  }
  PerfRecord At(size_t i) const {
    PerfRecord rec = items[i].rec;
    if (items[i].copy_at != SIZE_MAX) {
      rec.body = std::string_view(bytes).substr(items[i].copy_at,
                                                rec.body.size());
    }
    return rec;
  }
  PerfSample* Sample(size_t i) {
    uint32_t s = items[i].sample;
    return s == UINT32_MAX ? nullptr : &samples[s];
  }
  void Clear() {
    items.clear();
    bytes.clear();
    parsed = 0;
    record_bytes = 0;
  }
};

// About 100 KB of a frame-pointer recording's records a batch, a few batches
// ahead: the reading thread waits (and wakes) once a batch, not once a
// record, and the replay still starts with the first round. At most 1 MB of
// records a batch, however few records that is (a --call-graph dwarf sample
// holds 8 KB of stack or more): the reading thread stays a few MB ahead of
// the replay, well within the lag behind which it gives the mapped file's
// pages back (PerfDataReader::kReleaseLag), so that the replay does not read
// them in again and keep them to the end.
constexpr size_t kBatchRecords = 1024;
constexpr size_t kBatchBytes = 1u << 20;
constexpr size_t kQueuedBatches = 4;

// The records handed from the reading thread to the calling one, which
// replays them; a change of the reader's info after the header waits
// until every record before it was replayed (as it would be without the
// thread), so that the replay never reads info that is changing.
class Handover {
 public:
  Handover(const PerfDataReader* reader, OrderedRecords* replay)
      : reader_(reader), replay_(replay) {}

  /// On the reading thread: one record, in order. False once the replay
  /// stopped.
  bool Add(const PerfRecord& rec) {
    batch_.Add(rec, *reader_);
    bool full = batch_.items.size() >= kBatchRecords ||
                batch_.record_bytes >= kBatchBytes;
    return !full || Send();
  }
  /// On the reading thread: hands over the records added so far.
  bool Send() {
    if (batch_.items.empty()) return true;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++sent_;
    }
    bool ok = queue_.Push(&batch_);
    batch_.Clear();
    if (std::optional<Batch> used = spare_.TryPop()) batch_ = std::move(*used);
    return ok;
  }
  /// On the reading thread: waits until every record sent was replayed
  /// (or the replay stopped).
  void Drain() {
    Send();
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return replayed_ == sent_ || stopped_; });
  }
  /// On the reading thread: no more records come.
  void Close() { queue_.Close(); }

  /// On the calling thread: replays every record handed over. False with
  /// `*err` on the replay's first error, which stops the reading.
  bool Replay(std::string* err) {
    while (std::optional<Batch> batch = queue_.Pop()) {
      bool ok = true;
      for (size_t i = 0; ok && i < batch->items.size(); ++i) {
        ok = replay_->OnOrdered(batch->At(i), batch->Sample(i), err);
      }
      batch->Clear();
      spare_.TryPush(&*batch);
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++replayed_;
        done_.notify_all();
      }
      if (!ok) {
        Stop();
        return false;
      }
    }
    return true;
  }
  /// On the calling thread: no more records are wanted (an error); the
  /// reading thread stops at its next hand-over.
  void Stop() {
    queue_.Stop();
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    done_.notify_all();
  }

 private:
  const PerfDataReader* reader_;
  OrderedRecords* replay_;
  // The reading thread is mostly ahead and waits for room: without spinning,
  // which would take the replay's cores for nothing.
  BoundedQueue<Batch> queue_{kQueuedBatches,
                             {.push = std::chrono::microseconds(0)}};
  BoundedQueue<Batch> spare_{kQueuedBatches + 2};  // for reuse
  Batch batch_;  // the reading thread's
  std::mutex mu_;
  std::condition_variable done_;
  uint64_t sent_ = 0, replayed_ = 0;  // batches
  bool stopped_ = false;
};

bool FeedThreaded(PerfDataReader* reader, OrderedRecords* replay,
                  RecordCounts* counts, std::string* err) {
  Handover handover(reader, replay);
  ReadSide side(reader, replay, counts,
                [&handover](const PerfRecord& rec, std::string* e) {
                  if (handover.Add(rec)) return true;
                  *e = "the replay stopped";  // its own error is reported
                  return false;
                });
  side.on_info_change = [&handover] { handover.Drain(); };
  bool read_ok = true;
  std::string read_err;
  std::thread reading([&] {
    // An exception would end the program here: it becomes the error the
    // calling thread would have reported (see RunTool).
    try {
      read_ok = reader->Read(&side, &read_err) && side.Flush(&read_err);
    } catch (const std::bad_alloc&) {
      read_ok = false;
      read_err = "out of memory";
    } catch (const std::exception& e) {
      read_ok = false;
      read_err = e.what();
    }
    // The records ordered before a read error are replayed too: one of
    // them may fail first, as it would without the thread.
    handover.Send();
    handover.Close();
  });
  bool replayed = false;
  try {
    replayed = handover.Replay(err);
  } catch (...) {  // for main to report, once the reading has stopped
    handover.Stop();
    reading.join();
    throw;
  }
  reading.join();
  if (!replayed) return false;
  if (!read_ok) *err = read_err;
  return read_ok;
}

}  // namespace

bool FeedRecords(PerfDataReader* reader, OrderedRecords* replay,
                 bool threaded, RecordCounts* counts, std::string* err) {
  if (threaded) return FeedThreaded(reader, replay, counts, err);
  ReadSide side(reader, replay, counts,
                [replay](const PerfRecord& rec, std::string* e) {
                  return replay->OnOrdered(rec, nullptr, e);
                });
  return reader->Read(&side, err) && side.Flush(err);
}

}  // namespace flamefold
