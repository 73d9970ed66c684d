#include "perfdata/perf_data.h"

#include <doctest/doctest.h>

#include <zstd.h>

#include "perf_data_builder.h"

namespace flamefold {
namespace {

using testing::PerfDataBuilder;

// Collects what the reader delivers, as one text line per record.
class Collect : public PerfDataReader::Visitor {
 public:
  explicit Collect(PerfDataReader* r) : r_(r) {}
  bool OnHeader(const PerfDataInfo& info, std::string*) override {
    out += "header attrs=" + std::to_string(info.attrs.size()) + " name=" +
           info.attrs[0].name + "\n";
    return true;
  }
  bool OnRecord(const PerfRecord& rec, std::string* err) override {
    if (rec.type == 9) {
      PerfSample s;
      if (!r_->ParseSample(rec, &s, err)) return false;
      out += "sample pid=" + std::to_string(s.pid) + " tid=" +
             std::to_string(s.tid) + " time=" + std::to_string(s.time) +
             " period=" + std::to_string(s.period) + " attr=" +
             std::to_string(s.attr) + " chain=";
      for (uint64_t ip : s.callchain) out += std::to_string(ip) + ",";
      out += "\n";
    } else if (rec.type == 3) {
      PerfComm c;
      if (!r_->ParseComm(rec, &c, err)) return false;
      out += "comm " + std::to_string(c.tid) + " " + c.comm + " t=" +
             std::to_string(r_->TimeOf(rec)) + "\n";
    } else if (rec.type == 1) {
      PerfMmap m;
      if (!r_->ParseMmap(rec, &m, err)) return false;
      out += "mmap " + std::to_string(m.start) + " " + m.filename + "\n";
    } else {
      out += "record " + std::to_string(rec.type) + "\n";
    }
    return true;
  }
  std::string out;

 private:
  PerfDataReader* r_;
};

std::string ReadAll(const std::string& bytes, std::string* truncated = nullptr,
                    size_t chunk = SIZE_MAX) {
  StringSource src(bytes, chunk);
  PerfDataReader reader("t.data", &src);
  Collect c(&reader);
  std::string err;
  if (!reader.Read(&c, &err)) return "ERROR: " + err;
  if (truncated) *truncated = reader.truncated();
  return c.out;
}

PerfDataBuilder Simple(bool swap, bool pipe) {
  PerfDataBuilder b(swap, pipe);
  PerfDataBuilder::Attr a;
  a.name = "cpu-clock:ppp";
  a.ids = {7};
  b.AddAttr(a);
  b.Comm(10, 10, "prog", 5);
  b.Mmap(10, 0x400000, 0x1000, 0, "/bin/prog", 6);
  b.Sample(10, 11, 100, 250, {0x401000, 0x402000});
  b.FinishedRound();
  return b;
}

const char* const kSimple =
    "header attrs=1 name=cpu-clock:ppp\n"
    "comm 10 prog t=5\n"
    "mmap 4194304 /bin/prog\n"
    "sample pid=10 tid=11 time=100 period=250 attr=0 chain=4198400,4202496,\n"
    "record 68\n";

TEST_CASE("perf.data file and pipe mode, both byte orders") {
  for (bool swap : {false, true}) {
    for (bool pipe : {false, true}) {
      CAPTURE(swap);
      CAPTURE(pipe);
      std::string bytes = Simple(swap, pipe).Build();
      CHECK(ReadAll(bytes) == kSimple);
      CHECK(ReadAll(bytes, nullptr, 3) == kSimple);  // awkward reads
    }
  }
}

TEST_CASE("perf.data without an event description gets perf's default name") {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  a.flags |= 3ULL << 15;  // precise_ip = 3
  b.AddAttr(a);
  b.Sample(1, 1, 1, 1, {1});
  CHECK(ReadAll(b.Build()).rfind("header attrs=1 name=cpu-clock:ppp\n", 0) == 0);
  PerfDataBuilder h;
  a.type = 0;
  a.flags = (1ULL << 18) | (1ULL << 5) | (1ULL << 6);  // cycles:u
  h.AddAttr(a);
  h.Sample(1, 1, 1, 1, {1});
  CHECK(ReadAll(h.Build()).rfind("header attrs=1 name=cycles:u\n", 0) == 0);
}

TEST_CASE("samples are matched to their attr by id") {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  a.sample_type |= 1u << 16;  // identifier
  a.ids = {100, 101};
  a.name = "cycles";
  b.AddAttr(a);
  a.ids = {200};
  a.name = "instructions";
  b.AddAttr(a);
  b.Sample(1, 1, 1, 1, {1}, 2, 200);
  b.Sample(1, 1, 2, 1, {1}, 2, 101);
  std::string out = ReadAll(b.Build());
  CHECK(out.find("time=1 period=1 attr=1") != std::string::npos);
  CHECK(out.find("time=2 period=1 attr=0") != std::string::npos);
}

TEST_CASE("a file cut inside a record folds what came before") {
  for (bool pipe : {false, true}) {
    PerfDataBuilder builder(false, pipe);
    builder.AddAttr(PerfDataBuilder::Attr());
    builder.Mmap(10, 0x400000, 0x1000, 0, "/bin/prog", 6);
    builder.Sample(10, 11, 100, 250, {0x401000, 0x402000});
    std::string b = builder.Build();
    std::string truncated;
    std::string out = ReadAll(b.substr(0, b.size() - 30), &truncated);
    CHECK(out.find("mmap 4194304 /bin/prog") != std::string::npos);
    CHECK(out.find("sample") == std::string::npos);
    CHECK(!truncated.empty());
  }
}

TEST_CASE("corrupt lengths are errors naming the offset") {
  PerfDataBuilder b;
  PerfDataBuilder::Attr a;
  b.AddAttr(a);
  b.Raw(b.U32(9) + b.U16(0) + b.U16(4));  // size 4 < 8
  std::string out = ReadAll(b.Build());
  CHECK(out.rfind("ERROR: t.data: offset ", 0) == 0);
  CHECK(out.find("record size 4 is less than 8") != std::string::npos);

  // A call chain longer than its record.
  PerfDataBuilder c;
  c.AddAttr(a);
  std::string body = c.U64(1) + c.U32(1) + c.U32(1) + c.U64(1) + c.U64(0) +
                     c.U64(1) + c.U64(1u << 30);
  c.Record(9, 2, body);
  out = ReadAll(c.Build());
  CHECK(out.find("call chain length 1073741824 is more than the 0 bytes left")
        != std::string::npos);

  std::string bad = Simple(false, false).Build();
  bad[47] = '\x7f';  // data offset far past the end
  CHECK(ReadAll(bad).find("offset 40: data section offset") !=
        std::string::npos);
  CHECK(ReadAll("PERFILE2").rfind("ERROR: t.data: not a perf.data file", 0) ==
        0);
}

TEST_CASE("COMPRESSED records are opened, even when a record spans two") {
  PerfDataBuilder inner;
  PerfDataBuilder::Attr a;
  a.name = "cycles";
  inner.AddAttr(a);
  inner.Comm(10, 10, "prog", 5);
  inner.Sample(10, 10, 100, 3, {0x401000});
  std::string all = inner.Build();
  // The records are the tail of the pipe-mode build after the attrs.
  PerfDataBuilder pipe_only(false, true);
  pipe_only.AddAttr(a);
  std::string prefix = pipe_only.Build();
  std::string records = inner.Build();
  PerfDataBuilder rec_only(false, true);
  rec_only.AddAttr(a);
  rec_only.Comm(10, 10, "prog", 5);
  rec_only.Sample(10, 10, 100, 3, {0x401000});
  records = rec_only.Build().substr(prefix.size());

  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  auto compress = [&](std::string_view part, ZSTD_EndDirective end) {
    std::string out(ZSTD_compressBound(part.size()) + 64, '\0');
    ZSTD_inBuffer in{part.data(), part.size(), 0};
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ZSTD_compressStream2(cctx, &o, &in, end);
    out.resize(o.pos);
    return out;
  };
  std::string c1 = compress(std::string_view(records).substr(0, 20), ZSTD_e_flush);
  std::string c2 = compress(std::string_view(records).substr(20), ZSTD_e_end);
  ZSTD_freeCCtx(cctx);
  PerfDataBuilder z(false, true);
  z.AddAttr(a);
  z.Record(81, 0, c1);
  z.Record(81, 0, c2);
  std::string out = ReadAll(z.Build());
  CHECK(out == "header attrs=1 name=cycles\ncomm 10 prog t=5\n"
               "sample pid=10 tid=10 time=100 period=3 attr=0 chain=4198400,\n");
}

}  // namespace
}  // namespace flamefold

namespace flamefold {

// A recording in memory (a mapped file) tells its reader's caller which
// pages it has read past, kReleaseLag behind the record being read; one
// read from a stream does not (its bytes are the reader's own).
TEST_CASE("a recording in memory is read past in steps, a lag behind") {
  testing::PerfDataBuilder b;
  testing::PerfDataBuilder::Attr a;
  b.AddAttr(a);
  const std::vector<uint64_t> chain(200, 0x401000);  // 1.6 KB a sample
  for (uint64_t t = 0; t < 50000; ++t) b.Sample(1, 1, t, 1, chain);  // 80 MB
  const std::string bytes = b.Build();
  REQUIRE(bytes.size() > 2 * PerfDataReader::kReleaseLag);
  PerfDataReader reader("t.data", std::string_view(bytes));
  std::vector<size_t> past;
  reader.SetReadPast([&](size_t offset) { past.push_back(offset); });
  struct Count : PerfDataReader::Visitor {
    bool OnHeader(const PerfDataInfo&, std::string*) override { return true; }
    bool OnRecord(const PerfRecord& rec, std::string*) override {
      last = rec.offset;
      ++records;
      return true;
    }
    uint64_t last = 0, records = 0;
  } count;
  std::string err;
  REQUIRE(reader.Read(&count, &err));
  CHECK(count.records == 50000);
  REQUIRE(past.size() >= 3);
  for (size_t i = 1; i < past.size(); ++i) {
    CHECK(past[i] - past[i - 1] >= PerfDataReader::kReleaseStep);
  }
  CHECK(past.back() + PerfDataReader::kReleaseLag <= count.last + 8);
  CHECK(past.back() + PerfDataReader::kReleaseLag + 2 * PerfDataReader::kReleaseStep >
        count.last);
  StringSource src(bytes);
  PerfDataReader streamed("t.data", &src);
  bool called = false;
  streamed.SetReadPast([&](size_t) { called = true; });
  Count again;
  REQUIRE(streamed.Read(&again, &err));
  CHECK(again.records == 50000);
  CHECK_FALSE(called);
}

}  // namespace flamefold

namespace flamefold {
namespace {

// Parses the first record of the perf.data `bytes`, a sample, into
// `*into` (which may hold what an earlier sample left); false on an error.
bool ParseFirstSample(const std::string& bytes, PerfSample* into) {
  PerfDataReader reader("t.data", std::string_view(bytes));
  struct Parse : PerfDataReader::Visitor {
    Parse(PerfDataReader* r, PerfSample* s) : r(r), s(s) {}
    bool OnHeader(const PerfDataInfo&, std::string*) override { return true; }
    bool OnRecord(const PerfRecord& rec, std::string* err) override {
      if (!done) ok = r->ParseSample(rec, s, err);
      done = true;
      return true;
    }
    PerfDataReader* r;
    PerfSample* s;
    bool done = false, ok = false;
  } parse(&reader, into);
  std::string err;
  return reader.Read(&parse, &err) && parse.ok;
}

}  // namespace

// A PerfSample parsed into again (the replay's) keeps nothing of the sample before: a field the attr does
// not sample is absent, as perf's evsel__parse_sample leaves it.
TEST_CASE("a sample's fields its attr does not sample are absent, not left over") {
  testing::PerfDataBuilder b;
  testing::PerfDataBuilder::Attr a;
  a.sample_type = 0x1a5;  // ip time callchain cpu period: no tid
  b.AddAttr(a);
  b.Record(9, 2, b.U64(0x401000) + b.U64(100) + b.U32(0) + b.U32(0) +
                     b.U64(5) + b.U64(1) + b.U64(0x401000));
  PerfSample s;
  s.pid = 5;
  s.tid = 6;
  s.id = 7;
  REQUIRE(ParseFirstSample(b.Build(), &s));
  CHECK(s.pid == UINT32_MAX);
  CHECK(s.tid == UINT32_MAX);
  CHECK(s.id == 0);
  CHECK(s.time == 100);
  CHECK(s.period == 5);
  CHECK(s.callchain == std::vector<uint64_t>{0x401000});
}

// An empty call chain parsed into a PerfSample whose chain never held a frame
// copies nothing: no copy to a null
// pointer (UBSan).
TEST_CASE("an empty call chain parses into a sample that never held one") {
  testing::PerfDataBuilder b;
  testing::PerfDataBuilder::Attr a;
  b.AddAttr(a);
  b.Sample(1, 1, 100, 1, {});
  PerfSample fresh;
  REQUIRE(ParseFirstSample(b.Build(), &fresh));
  CHECK(fresh.has_callchain);
  CHECK(fresh.callchain.empty());
}

}  // namespace flamefold
