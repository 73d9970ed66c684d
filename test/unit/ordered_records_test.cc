// FeedRecords: the records in perf's order with their attrs, and the first
// error of the reading or the replay.
#include "perfdata/ordered_records.h"

#include <doctest/doctest.h>

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "perf_data_builder.h"

namespace flamefold {
namespace {

using testing::PerfDataBuilder;

// The replay's fake: a line per record, with what parsing it on this
// thread gives (the sample's attr and time; the event name the info holds
// then), failing at record number `fail_at` (0: never).
class Lines : public OrderedRecords {
 public:
  Lines(PerfDataReader* reader, size_t fail_at)
      : reader_(reader), fail_at_(fail_at) {}
  bool OnHeader(const PerfDataInfo& info, std::string*) override {
    out += "header " + std::to_string(info.attrs.size()) + "\n";
    return true;
  }
  bool OnOrdered(const PerfRecord& rec, std::string* err) override {
    if (++count == fail_at_) {
      *err = "replay failed at record " + std::to_string(count);
      return false;
    }
    out += std::to_string(rec.type) + "@" + std::to_string(rec.offset);
    if (rec.type == 9) {
      PerfSample s;
      if (!reader_->ParseSample(rec, &s, err)) return false;
      out += " attr=" + std::to_string(s.attr) + " t=" +
             std::to_string(s.time) + " " + reader_->info().attrs[s.attr].name;
    }
    out += "\n";
    return true;
  }
  std::string out;
  size_t count = 0;

 private:
  PerfDataReader* reader_;
  size_t fail_at_;
};

struct Fed {
  bool ok;
  std::string out, err;
  RecordCounts counts;
};

Fed Feed(const std::string& bytes, size_t fail_at = 0) {
  PerfDataReader reader("t.data", std::string_view(bytes));
  Lines lines(&reader, fail_at);
  Fed fed;
  fed.ok = FeedRecords(&reader, &lines, &fed.counts, &fed.err);
  fed.out = lines.out;
  return fed;
}

// Two events told apart by id; rounds of samples out of time order, more
// records than a hand-over holds.
PerfDataBuilder Busy(size_t rounds) {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  a.sample_type |= 1u << 16;  // identifier
  a.name = "cpu-clock";
  a.ids = {7};
  b.AddAttr(a);
  a.name = "page-faults";
  a.ids = {8};
  b.AddAttr(a);
  uint64_t t = 1000;
  for (size_t r = 0; r < rounds; ++r) {
    for (int i = 0; i < 1000; ++i) {
      uint64_t time = t + static_cast<uint64_t>((i * 7919) % 1000);
      b.Sample(1, 1, time, 1, {0x401000}, 2, i % 3 == 0 ? 8 : 7);
    }
    b.Lost(7, 5, t + 10);
    b.FinishedRound();
    t += 1000;
  }
  return b;
}

}  // namespace

TEST_CASE("the records come in perf's order with their attrs") {
  Fed fed = Feed(Busy(9).Build());
  REQUIRE(fed.ok);
  CHECK(fed.counts.records == 9 * 1002);
  CHECK(fed.counts.lost_records == 45);
  CHECK(fed.counts.lost_chunks == 9);
  CHECK(fed.out.find(" attr=1 t=1000 page-faults\n") != std::string::npos);
  // Time order: each sample's time at least the one before.
  uint64_t last = 0;
  size_t samples = 0;
  for (size_t at = fed.out.find(" t="); at != std::string::npos;
       at = fed.out.find(" t=", at + 1)) {
    uint64_t t = std::stoull(fed.out.substr(at + 3));
    CHECK(t >= last);
    last = t;
    ++samples;
  }
  CHECK(samples == 9000);
}

TEST_CASE("the replay's error stops the feed, and wins over a later read error") {
  PerfDataBuilder b = Busy(6);
  b.Raw(std::string("\x09\0\0\0\0\0\x04\0", 8));  // size 4: corrupt
  const std::string bytes = b.Build();
  Fed read_error = Feed(bytes);
  CHECK_FALSE(read_error.ok);
  CHECK(read_error.err.find("record size 4 is less than 8") != std::string::npos);
  // Every record ordered before the corrupt one was replayed.
  CHECK(read_error.out.size() > 0);
  Fed replay_error = Feed(bytes, 3500);
  CHECK_FALSE(replay_error.ok);
  CHECK(replay_error.err == "replay failed at record 3500");
  CHECK(replay_error.out.size() < read_error.out.size());
}

TEST_CASE("records decompressed come in order with their attrs") {
  PerfDataBuilder::Attr a;
  a.name = "cycles";
  // The records, as the tail of a pipe-mode build after its attrs.
  PerfDataBuilder head(false, true);
  head.AddAttr(a);
  PerfDataBuilder inner(false, true);
  inner.AddAttr(a);
  for (uint64_t t = 1; t <= 3000; ++t) inner.Sample(10, 10, t, 3, {0x401000});
  inner.FinishedRound();
  const std::string records = inner.Build().substr(head.Build().size());
  std::string z(ZSTD_compressBound(records.size()), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), records.data(), records.size(), 1));
  PerfDataBuilder b;
  b.AddAttr(a);
  b.Record(81, 0, z);
  Fed fed = Feed(b.Build());
  REQUIRE(fed.ok);
  CHECK(fed.counts.records == 3001);
  CHECK(fed.out.find(" attr=0 t=3000 cycles\n") != std::string::npos);
}

TEST_CASE("an event name changed among the records waits for those before it") {
  PerfDataBuilder b(false, true);  // pipe mode: EVENT_UPDATE records
  PerfDataBuilder::Attr a;
  a.name = "first";
  a.ids = {7};
  b.AddAttr(a);
  for (uint64_t t = 1; t <= 5000; ++t) {
    b.Sample(1, 1, t, 1, {0x401000});
    if (t % 1000 == 0) {
      std::string name = "name" + std::to_string(t);
      name.resize(16, '\0');
      b.Record(78, 0, b.U64(2) + b.U64(7) + name);  // EVENT_UPDATE: a name
      b.FinishedRound();
    }
  }
  // Each round's samples go after the next round's name came (the round
  // after delivers them), the last ones at the end.
  Fed fed = Feed(b.Build());
  REQUIRE(fed.ok);
  CHECK(fed.out.find(" t=999 name2000\n") != std::string::npos);
  CHECK(fed.out.find(" t=1001 name3000\n") != std::string::npos);
  CHECK(fed.out.find(" t=5000 name5000\n") != std::string::npos);
  CHECK(fed.out.find("first") == std::string::npos);
}

// The reader gives a mapped file's pages back behind it; the records still
// queued for perf's order are copies, so the replay never reads a page given
// back.
TEST_CASE("the replay never reads records whose pages the reading gave back") {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  b.AddAttr(a);
  const std::vector<uint64_t> chain(1000, 0x401000);  // 8 KB a sample
  for (uint64_t t = 1; t <= 10000; ++t) {
    b.Sample(1, 1, t, 1, chain);
    if (t % 100 == 0) b.FinishedRound();  // 800 KB rounds
  }
  const std::string bytes = b.Build();  // 80 MB
  REQUIRE(bytes.size() > 2 * PerfDataReader::kReleaseLag);
  PerfDataReader reader("t.data", std::string_view(bytes));
  std::atomic<size_t> released{0};
  reader.SetReadPast([&](size_t offset) {
    released.store(std::max(released.load(), offset));
  });
  struct Check : OrderedRecords {
    explicit Check(std::atomic<size_t>* released) : released(released) {}
    bool OnHeader(const PerfDataInfo&, std::string*) override { return true; }
    bool OnOrdered(const PerfRecord& rec, std::string*) override {
      if (rec.offset < released->load()) ++read_released;
      ++records;
      return true;
    }
    std::atomic<size_t>* released;
    uint64_t records = 0, read_released = 0;
  } check(&released);
  RecordCounts counts;
  std::string err;
  REQUIRE(FeedRecords(&reader, &check, &counts, &err));
  CHECK(check.records == 10000);
  CHECK(released.load() > 0);
  CHECK(check.read_released == 0);
}

}  // namespace flamefold
