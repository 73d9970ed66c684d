#include "perfdata/perf_data.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "collapse/input_kind.h"
#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
using abi::PerfCursor;
static_assert(sizeof(abi::PipeHeader) == kPerfDataPipeHeaderSize);
namespace {

constexpr size_t kMaxDecompressed = 64u << 20;  // pending decompressed bytes

}  // namespace

struct PerfDataReader::Decompressor {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  std::string pending;  // decompressed bytes not yet delivered
  uint64_t offset = 0;  // of pending[0] in the decompressed stream
  ~Decompressor() { ZSTD_freeDCtx(ctx); }
};

PerfDataReader::PerfDataReader(std::string name, ByteSource* src)
    : name_(std::move(name)), src_(src) {}

PerfDataReader::PerfDataReader(std::string name, std::string_view bytes)
    : name_(std::move(name)),
      src_(nullptr),
      mapped_(bytes),
      own_src_(std::make_unique<MemorySource>(bytes)) {
  src_ = own_src_.get();
}

PerfDataReader::~PerfDataReader() = default;

std::string PerfDataReader::At(uint64_t offset) const {
  return name_ + ": offset " + std::to_string(offset) + ": ";
}

bool PerfDataReader::Read(Visitor* v, std::string* err) {
  std::string head;
  if (!ReadFully(src_, 16, &head, err)) {
    *err = name_ + ": " + *err;
    return false;
  }
  if (head.size() < 16) {
    *err = name_ + ": not a perf.data file (only " +
           std::to_string(head.size()) + " bytes)";
    return false;
  }
  PerfDataStart start;
  if (!ReadPerfDataStart(head, &start)) {
    *err = name_ + ": not a perf.data file (no PERFILE2 magic)";
    return false;
  }
  info_.swapped = start.swapped;
  const uint64_t size = start.header_size;
  if (size == kPerfDataPipeHeaderSize) {
    info_.pipe = true;
    return ReadPipeMode(v, err);
  }
  if (size != sizeof(abi::FileHeader)) {
    *err = At(8) + "header size " + std::to_string(size) +
           " is neither 16 (pipe) nor 104 (file)";
    return false;
  }
  return ReadFileMode(head, v, err);
}

// File mode: header, attrs with their id lists, the data section, then the
// feature sections. The whole file is read into memory first: the event
// names are in a feature section after the data.
// Reads the rest of the input after `head` into file_, growing the buffer
// geometrically with realloc (no zero fill, no copy of a moved mapping).
bool PerfDataReader::Slurp(const std::string& head, std::string* err) {
  size_t cap = 1u << 20;
  char* buf = static_cast<char*>(std::malloc(cap));
  if (!buf) {
    *err = name_ + ": out of memory";
    return false;
  }
  file_.reset(buf);
  std::memcpy(buf, head.data(), head.size());
  file_size_ = head.size();
  for (;;) {
    if (cap - file_size_ < (256u << 10)) {
      char* grown = static_cast<char*>(std::realloc(file_.get(), cap * 2));
      if (!grown) {
        *err = name_ + ": out of memory reading " + std::to_string(cap) +
               " bytes";
        return false;
      }
      file_.release();
      file_.reset(grown);
      cap *= 2;
    }
    size_t got = 0;
    if (!src_->Read(file_.get() + file_size_, cap - file_size_, &got, err)) {
      *err = name_ + ": " + *err;
      return false;
    }
    if (got == 0) return true;
    file_size_ += got;
  }
}

bool PerfDataReader::ReadFileMode(const std::string& head, Visitor* v,
                                  std::string* err) {
  std::string_view file = mapped_;
  if (file.empty()) {
    if (!Slurp(head, err)) return false;
    file = std::string_view(file_.get(), file_size_);
  }
  if (file.size() < sizeof(abi::FileHeader)) {
    *err = name_ + ": file ends inside the perf.data header (" +
           std::to_string(file.size()) + " bytes)";
    return false;
  }
  if (!ReadAttrs(file, err)) return false;
  PerfCursor h(std::string_view(file).substr(40), 40, info_.swapped);
  uint64_t data_off = 0, data_size = 0;
  h.Get(&data_off);
  h.Get(&data_size);
  if (data_off > file.size()) {
    *err = At(40) + "data section offset " + std::to_string(data_off) +
           " is past the end of the file (" + std::to_string(file.size()) +
           " bytes)";
    return false;
  }
  uint64_t avail = file.size() - data_off;
  if (data_size == 0 && avail > 0) {
    // perf record was killed before it rewrote the header: the records run
    // to the end of the file and there are no feature sections.
    data_size = avail;
    truncated_ = "the header was never finalised (perf record killed?)";
  } else if (data_size > avail) {
    truncated_ = "the data section is cut short (" + std::to_string(avail) +
                 " of " + std::to_string(data_size) + " bytes)";
    data_size = avail;
  } else if (!ReadFeatures(file, data_off + data_size, err)) {
    return false;
  }
  if (!EnsureHeader(v, err)) return false;
  size_t used = 0;
  std::string_view data = file.substr(data_off, data_size);
  if (!Records(data, data_off, true, v, &used, err)) return false;
  if (used < data.size() && truncated_.empty()) {
    truncated_ = "the last record is cut short at offset " +
                 std::to_string(data_off + used);
  }
  return true;
}

bool PerfDataReader::ReadRecordHeader(std::string_view bytes, uint64_t at,
                                      RecordHeader* h, std::string* err) const {
  PerfCursor c(bytes, at, info_.swapped);
  c.Get(&h->type);
  c.Get(&h->misc);
  c.Get(&h->size);
  if (h->size >= 8) return true;
  *err = At(at + 6) + "record size " + std::to_string(h->size) +
         " is less than 8";
  return false;
}

// Pipe mode: records follow the 16-byte header, the attrs and features
// among them. Read one record at a time, so memory stays small.
bool PerfDataReader::ReadPipeMode(Visitor* v, std::string* err) {
  uint64_t offset = 16;
  std::string buf;
  for (;;) {
    if (!ReadFully(src_, 8, &buf, err)) {
      *err = name_ + ": " + *err;
      return false;
    }
    if (buf.empty()) break;
    if (buf.size() < 8) {
      truncated_ = "the input ends inside a record header at offset " +
                   std::to_string(offset);
      break;
    }
    RecordHeader header;
    if (!ReadRecordHeader(buf, offset, &header, err)) return false;
    auto [type, misc, size] = header;
    std::string body;
    if (!ReadFully(src_, size - 8u, &body, err)) {
      *err = name_ + ": " + *err;
      return false;
    }
    if (body.size() < size - 8u) {
      truncated_ = "the input ends inside the record at offset " +
                   std::to_string(offset);
      break;
    }
    PerfRecord rec{type, misc, body, offset};
    // Some records are followed by a payload their header does not count.
    uint64_t extra = 0;
    PerfCursor b(body, offset + 8, info_.swapped);
    if (type == abi::kRecordHeaderTracingData) {
      uint32_t n = 0;
      b.Get(&n);
      extra = (uint64_t{n} + 7) & ~uint64_t{7};
    } else if (type == abi::kRecordAuxtrace) {
      b.Get(&extra);
    }
    if (!Deliver(rec, v, err)) return false;
    offset += size;
    const uint64_t payload_at = offset;
    std::string tracing;  // the tracing data's payload, kept
    while (extra > 0) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(extra, 1u << 20));
      std::string skip;
      if (!ReadFully(src_, n, &skip, err)) {
        *err = name_ + ": " + *err;
        return false;
      }
      offset += skip.size();
      extra -= skip.size();
      if (type == abi::kRecordHeaderTracingData) tracing += skip;
      if (skip.size() < n) {
        truncated_ = "the input ends inside a record payload";
        return EnsureHeader(v, err);
      }
    }
    if (!tracing.empty()) ReadTracingData(tracing, payload_at);
  }
  return EnsureHeader(v, err);
}

// Walks the records of `data` (which starts at `base`). `*used` is set to
// the bytes of whole records consumed.
bool PerfDataReader::Records(std::string_view data, uint64_t base,
                             bool stable, Visitor* v, size_t* used,
                             std::string* err) {
  size_t pos = 0;
  size_t told = 0;  // where read_past_ was last called
  const bool release = stable && read_past_ && !mapped_.empty();
  while (data.size() - pos >= 8) {
    if (release && pos - told >= kReleaseStep) {
      told = pos;
      if (base + pos > kReleaseLag) read_past_(base + pos - kReleaseLag);
    }
    RecordHeader header;
    if (!ReadRecordHeader(data.substr(pos, 8), base + pos, &header, err)) {
      return false;
    }
    auto [type, misc, size] = header;
    if (size > data.size() - pos) break;
    PerfRecord rec{type, misc, data.substr(pos + 8, size - 8u), base + pos,
                   stable};
    uint64_t extra = 0;
    if (type == abi::kRecordAuxtrace) {
      PerfCursor b(rec.body, base + pos + 8, info_.swapped);
      b.Get(&extra);
      if (extra > data.size() - pos - size) break;
    }
    if (!Deliver(rec, v, err)) return false;
    pos += size + static_cast<size_t>(extra);
  }
  *used = pos;
  return true;
}

bool PerfDataReader::EnsureHeader(Visitor* v, std::string* err) {
  if (header_sent_) return true;
  header_sent_ = true;
  if (info_.attrs.empty()) {
    *err = name_ + ": no event attributes before the first record";
    return false;
  }
  for (PerfAttr& a : info_.attrs) {
    if (a.name.empty()) a.name = DefaultEventName(a);
  }
  return v->OnHeader(info_, err);
}

bool PerfDataReader::Deliver(const PerfRecord& rec, Visitor* v,
                             std::string* err) {
  switch (rec.type) {
    case abi::kRecordHeaderAttr:
    case abi::kRecordHeaderFeature:
    case abi::kRecordEventUpdate:
      return HeaderRecord(rec, err);
    case abi::kRecordCompressed:
      return Decompress(rec, v, err);
    default:
      if (rec.type >= abi::kRecordUserTypeStart &&
          rec.type != abi::kRecordFinishedRound) {
        return true;  // describes the file only: ids, maps, stat, ...
      }
      if (!EnsureHeader(v, err)) return false;
      return v->OnRecord(rec, err);
  }
}

// COMPRESSED (perf record -z): one zstd stream spans all of them and a
// record may continue from one to the next, so the context and the
// undelivered bytes persist.
bool PerfDataReader::Decompress(const PerfRecord& rec, Visitor* v,
                                std::string* err) {
  if (!zstd_) zstd_ = std::make_unique<Decompressor>();
  Decompressor& z = *zstd_;
  ZSTD_inBuffer in{rec.body.data(), rec.body.size(), 0};
  while (in.pos < in.size) {
    size_t old = z.pending.size();
    if (old > kMaxDecompressed) {
      *err = At(rec.offset) + "compressed records hold a record larger than " +
             std::to_string(kMaxDecompressed) + " bytes";
      return false;
    }
    z.pending.resize(old + (256u << 10));
    ZSTD_outBuffer out{z.pending.data() + old, 256u << 10, 0};
    size_t r = ZSTD_decompressStream(z.ctx, &out, &in);
    z.pending.resize(old + out.pos);
    if (ZSTD_isError(r)) {
      *err = At(rec.offset) + "compressed record: " + ZSTD_getErrorName(r);
      return false;
    }
    if (out.pos == 0 && in.pos < in.size && r == 0) break;
  }
  size_t used = 0;
  std::string data = std::move(z.pending);
  z.pending.clear();
  if (!Records(data, z.offset, false, v, &used, err)) {
    *err += " (in the decompressed stream)";
    return false;
  }
  z.pending.assign(data, used, std::string::npos);
  z.offset += used;
  return true;
}

}  // namespace flamefold
