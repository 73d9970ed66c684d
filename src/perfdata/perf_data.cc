#include "perfdata/perf_data.h"

#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "collapse/input_kind.h"
#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
static_assert(sizeof(abi::PipeHeader) == kPerfDataPipeHeaderSize);
namespace {

// Sanity limits: a value above them is corruption, not a big file.
constexpr uint64_t kMaxAttrSize = 4096;
constexpr uint64_t kMaxAttrs = 65536;
constexpr size_t kMaxDecompressed = 64u << 20;  // pending decompressed bytes

uint64_t Bswap(uint64_t v) { return __builtin_bswap64(v); }
uint32_t Bswap(uint32_t v) { return __builtin_bswap32(v); }
uint16_t Bswap(uint16_t v) { return __builtin_bswap16(v); }

// Reads fixed-size fields from a byte range, in the file's byte order,
// never past its end. `base` is the offset of the range in the input, for
// messages.
class Cursor {
 public:
  Cursor(std::string_view b, uint64_t base, bool swap)
      : b_(b), base_(base), swap_(swap) {}
  template <typename T>
  bool Get(T* v) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, b_.data() + pos_, sizeof(T));
    if (swap_ && sizeof(T) > 1) *v = Bswap(*v);
    pos_ += sizeof(T);
    return true;
  }
  /// `n` u64s at once: one bounds check and one copy for a call chain.
  bool GetArray(uint64_t* v, size_t n) {
    if ((b_.size() - pos_) / 8 < n) return false;
    if (n == 0) return true;  // `v` may be null: an empty vector's data()
    std::memcpy(v, b_.data() + pos_, n * 8);
    if (swap_) {
      for (size_t i = 0; i < n; ++i) v[i] = Bswap(v[i]);
    }
    pos_ += n * 8;
    return true;
  }
  bool Bytes(size_t n, std::string_view* out) {
    if (b_.size() - pos_ < n) return false;
    *out = b_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool Skip(uint64_t n) {
    if (b_.size() - pos_ < n) return false;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  size_t left() const { return b_.size() - pos_; }
  size_t pos() const { return pos_; }
  uint64_t offset() const { return base_ + pos_; }

 private:
  std::string_view b_;
  size_t pos_ = 0;
  uint64_t base_;
  bool swap_;
};

// A C string in a fixed-size field: up to the first NUL.
std::string CString(std::string_view s) {
  size_t nul = s.find('\0');
  return std::string(s.substr(0, nul));
}

// The bit field word of a big-endian attr, read as a u64, has its bits in
// the opposite order (bit fields are allocated from the most significant
// bit there): reverse them so that bit 0 is `disabled` again.
uint64_t ReverseBits(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1) << (63 - i);
  return r;
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

// The names perf prints for the generic hardware events, in the order of
// their PERF_COUNT_HW_* numbers.
const char* const kHardwareNames[] = {
    "cycles", "instructions", "cache-references", "cache-misses",
    "branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
    "stalled-cycles-backend", "ref-cycles"};
const char* const kSoftwareNames[] = {
    "cpu-clock", "task-clock", "page-faults", "context-switches",
    "cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
    "emulation-faults", "dummy", "bpf-output", "cgroup-switches"};

// The ":kuhpppHG" modifiers perf appends to a default event name.
std::string Modifiers(const PerfAttr& a) {
  std::string m;
  bool exclude_guest_default = false;
  auto mod = [&](int bit, char c) {
    if (!a.flag(bit)) m += c;
  };
  if (a.flag(abi::kFlagExcludeKernel) || a.flag(abi::kFlagExcludeUser) ||
      a.flag(abi::kFlagExcludeHv)) {
    mod(abi::kFlagExcludeKernel, 'k');
    mod(abi::kFlagExcludeUser, 'u');
    mod(abi::kFlagExcludeHv, 'h');
    exclude_guest_default = true;
  }
  if (a.precise_ip() > 0) {
    m.append(static_cast<size_t>(a.precise_ip()), 'p');
    exclude_guest_default = true;
  }
  if (a.flag(abi::kFlagExcludeHost) ||
      a.flag(abi::kFlagExcludeGuest) == exclude_guest_default) {
    mod(abi::kFlagExcludeHost, 'H');
    mod(abi::kFlagExcludeGuest, 'G');
  }
  return m.empty() ? m : ":" + m;
}

// A sample's read_format area. A group: nr, the times, then nr times
// { value, id, lost }; one counter: value, the times, id, lost (id and
// lost as read_format asks). The values are kept when they have ids.
bool ReadValues(uint64_t rf, Cursor* c, PerfSample* s) {
  const bool group = rf & abi::kReadGroup, has_id = rf & abi::kReadId;
  const uint64_t times = std::popcount(rf & (abi::kReadTotalTimeEnabled |
                                             abi::kReadTotalTimeRunning));
  const uint64_t per = 1 + std::popcount(rf & (abi::kReadId | abi::kReadLost));
  uint64_t nr = 1;
  if (group && !c->Get(&nr)) return false;
  if (nr > c->left() / 8 / per) return false;
  if (group && !c->Skip(times * 8)) return false;
  for (uint64_t i = 0; i < nr; ++i) {
    PerfSample::ReadValue v{0, 0};
    if (!c->Get(&v.value)) return false;
    if (!group && !c->Skip(times * 8)) return false;  // after its value
    if (has_id && !c->Get(&v.id)) return false;
    if ((rf & abi::kReadLost) && !c->Skip(8)) return false;
    if (has_id) s->read_values.push_back(v);
  }
  return true;
}

// The fields after the call chain, up to the user stack (DWARF call
// graphs): raw data and branch stacks are skipped, the user registers and
// the stack copy kept. Every length is checked against the bytes left.
// Returns "" or what is wrong (the cursor is left where it was found).
std::string ReadUserState(const PerfAttr& a, Cursor* cp, PerfSample* s) {
  Cursor& c = *cp;
  uint64_t st = a.sample_type;
  if (st & abi::kSampleRaw) {
    uint32_t size = 0;
    if (!c.Get(&size) || !c.Skip(size)) return "sample cut short in its raw data";
  }
  if (st & abi::kSampleBranchStack) {
    uint64_t nr = 0, hw_idx = 0;
    bool ok = c.Get(&nr) && (!(a.branch_sample_type & abi::kBranchHwIndex) ||
                             c.Get(&hw_idx));
    if (!ok || nr > c.left() / 24 || !c.Skip(nr * 24)) {
      return "sample cut short in its branch stack";
    }
  }
  if (st & abi::kSampleRegsUser) {
    if (!c.Get(&s->regs_abi)) return "sample cut short in its user registers";
    if (s->regs_abi != 0) {
      size_t n = static_cast<size_t>(std::popcount(a.sample_regs_user));
      if (n > c.left() / 8) return "sample cut short in its user registers";
      s->user_regs.resize(n);
      for (uint64_t& r : s->user_regs) c.Get(&r);
    }
  }
  if (st & abi::kSampleStackUser) {
    uint64_t size = 0, dyn_size = 0;
    if (!c.Get(&size)) return "sample cut short in its user stack";
    if (size != 0) {
      std::string_view bytes;
      if (size > c.left()) {
        return "user stack size " + std::to_string(size) +
               " is more than the " + std::to_string(c.left()) +
               " bytes left in the record";
      }
      c.Bytes(static_cast<size_t>(size), &bytes);
      if (!c.Get(&dyn_size)) return "sample cut short in its user stack";
      // perf refuses a dynamic size beyond the copy; the stack is then
      // not used (no unwinding) rather than the whole file refused.
      if (dyn_size <= size) s->user_stack = bytes.substr(0, dyn_size);
    }
  }
  return "";
}

}  // namespace

bool PerfAttr::sample_id_all() const { return flag(abi::kFlagSampleIdAll); }

std::string DefaultEventName(const PerfAttr& a) {
  std::string base;
  if (a.type == abi::kTypeHardware && a.config < std::size(kHardwareNames)) {
    base = kHardwareNames[a.config];
  } else if (a.type == abi::kTypeSoftware &&
             a.config < std::size(kSoftwareNames)) {
    base = kSoftwareNames[a.config];
  } else if (a.type == abi::kTypeRaw) {
    base = "raw " + Hex(a.config);
  } else {
    base = "unknown attr type: " + std::to_string(a.type);
    return base;
  }
  return base + Modifiers(a);
}

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
  Cursor h(std::string_view(file).substr(40), 40, info_.swapped);
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

bool PerfDataReader::ReadAttrs(std::string_view file, std::string* err) {
  Cursor h(file.substr(16), 16, info_.swapped);
  uint64_t attr_size = 0, off = 0, size = 0;
  h.Get(&attr_size);
  h.Get(&off);
  h.Get(&size);
  if (attr_size < abi::kAttrSizeVer0 + 16 || attr_size > kMaxAttrSize) {
    *err = At(16) + "attr size " + std::to_string(attr_size) +
           " is out of range";
    return false;
  }
  if (off > file.size() || size > file.size() - off) {
    *err = At(24) + "attr section (" + std::to_string(off) + ", " +
           std::to_string(size) + " bytes) is past the end of the file";
    return false;
  }
  if (size % attr_size != 0 || size / attr_size > kMaxAttrs) {
    *err = At(32) + "attr section size " + std::to_string(size) +
           " is not a multiple of the attr size " + std::to_string(attr_size);
    return false;
  }
  for (uint64_t i = 0; i < size / attr_size; ++i) {
    uint64_t at = off + i * attr_size;
    PerfAttr attr;
    if (!AddAttr(file.substr(at, attr_size - 16), at, &attr, err)) {
      return false;
    }
    Cursor ids(file.substr(at + attr_size - 16, 16), at + attr_size - 16,
               info_.swapped);
    uint64_t ids_off = 0, ids_size = 0;
    ids.Get(&ids_off);
    ids.Get(&ids_size);
    if (ids_off > file.size() || ids_size > file.size() - ids_off ||
        ids_size % 8 != 0) {
      *err = At(ids.offset() - 16) + "id list (" + std::to_string(ids_off) +
             ", " + std::to_string(ids_size) +
             " bytes) is past the end of the file or not whole u64s";
      return false;
    }
    Cursor list(file.substr(ids_off, ids_size), ids_off, info_.swapped);
    uint64_t id = 0;
    while (list.Get(&id)) attr.ids.push_back(id);
    info_.attrs.push_back(std::move(attr));
  }
  if (info_.attrs.empty()) {
    *err = At(24) + "no event attributes";
    return false;
  }
  IndexIds();
  return true;
}

// Decodes one perf_event_attr; `bytes` is at least as long as attr.size
// claims (checked here).
bool PerfDataReader::AddAttr(std::string_view bytes, uint64_t at,
                             PerfAttr* a, std::string* err) const {
  Cursor c(bytes, at, info_.swapped);
  uint32_t size = 0;
  if (!c.Get(&a->type) || !c.Get(&size)) {
    *err = At(at) + "event attribute cut short";
    return false;
  }
  if (size == 0) size = abi::kAttrSizeVer0;
  if (size < abi::kAttrSizeVer0 || size > bytes.size()) {
    *err = At(at + 4) + "event attribute size " + std::to_string(size) +
           " is out of range (" + std::to_string(bytes.size()) +
           " bytes available)";
    return false;
  }
  c.Get(&a->config);
  c.Get(&a->sample_period);
  c.Get(&a->sample_type);
  c.Get(&a->read_format);
  c.Get(&a->flags);
  if (info_.swapped) a->flags = ReverseBits(a->flags);
  auto field = [&](uint32_t off, uint64_t* out) {
    if (size >= off + 8) {
      Cursor f(bytes.substr(off, 8), at + off, info_.swapped);
      f.Get(out);
    }
  };
  field(abi::kAttrOffBranchSampleType, &a->branch_sample_type);
  field(abi::kAttrOffSampleRegsUser, &a->sample_regs_user);
  field(abi::kAttrOffSampleRegsIntr, &a->sample_regs_intr);
  return true;
}

// Where the sample id sits, as perf computes it from the first attr (perf
// refuses files whose attrs disagree on the sample layout).
void PerfDataReader::IndexIds() {
  id_index_.clear();
  last_id_ = {UINT64_MAX, SIZE_MAX};
  for (size_t i = 0; i < info_.attrs.size(); ++i) {
    for (uint64_t id : info_.attrs[i].ids) id_index_.emplace_back(id, i);
  }
  std::sort(id_index_.begin(), id_index_.end());
  sample_id_pos_ = trailer_id_pos_ = -1;
  if (info_.attrs.empty()) return;
  uint64_t st = info_.attrs[0].sample_type;
  if (st & abi::kSampleIdentifier) {
    sample_id_pos_ = 0;
    trailer_id_pos_ = 1;
  } else if (st & abi::kSampleId) {
    sample_id_pos_ = std::popcount(st & (abi::kSampleIp | abi::kSampleTid |
                                         abi::kSampleTime | abi::kSampleAddr));
    trailer_id_pos_ =
        1 + std::popcount(st & (abi::kSampleCpu | abi::kSampleStreamId));
  }
}

bool PerfDataReader::ReadFeatures(std::string_view file, uint64_t at,
                                  std::string* err) {
  Cursor bits(file.substr(72, 32), 72, info_.swapped);
  uint64_t words[4] = {};
  for (uint64_t& w : words) bits.Get(&w);
  for (int feat = 0; feat < abi::kFeatLast; ++feat) {
    if (!((words[feat / 64] >> (feat % 64)) & 1)) continue;
    if (at > file.size() || file.size() - at < 16) {
      truncated_ = "the feature sections are cut short";
      return true;
    }
    Cursor s(file.substr(at, 16), at, info_.swapped);
    uint64_t off = 0, size = 0;
    s.Get(&off);
    s.Get(&size);
    if (off > file.size() || size > file.size() - off) {
      truncated_ = "feature section " + std::to_string(feat) +
                   " is past the end of the file";
      return true;
    }
    if (!ReadFeature(feat, file.substr(off, size), off, err)) return false;
    at += 16;
  }
  return true;
}

// One feature section. Unknown features are skipped; a malformed one we
// need (event names) is an error, one we only report is ignored.
bool PerfDataReader::ReadFeature(int feat, std::string_view sec, uint64_t at,
                                 std::string* err) {
  Cursor c(sec, at, info_.swapped);
  auto str = [&](std::string* out) {
    uint32_t len = 0;
    std::string_view s;
    if (!c.Get(&len) || !c.Bytes(len, &s)) return false;
    *out = CString(s);
    return true;
  };
  switch (feat) {
    case abi::kFeatHostname: str(&info_.hostname); return true;
    case abi::kFeatOsRelease: str(&info_.os_release); return true;
    case abi::kFeatVersion: str(&info_.perf_version); return true;
    case abi::kFeatArch: str(&info_.arch); return true;
    case abi::kFeatCmdline: {
      uint32_t nr = 0;
      c.Get(&nr);
      std::string s;
      for (uint32_t i = 0; i < nr && str(&s); ++i) info_.cmdline.push_back(s);
      return true;
    }
    case abi::kFeatBuildId: {
      while (c.left() >= 8) {
        uint64_t rec_at = c.offset();
        uint32_t type = 0;
        uint16_t misc = 0, size = 0;
        c.Get(&type);
        c.Get(&misc);
        c.Get(&size);
        std::string_view body;
        if (size < 8 + 4 + 24 || !c.Bytes(size - 8u, &body)) break;
        Cursor b(body, rec_at + 8, info_.swapped);
        PerfDataInfo::BuildId id;
        uint32_t pid = 0;
        b.Get(&pid);
        id.pid = static_cast<int32_t>(pid);
        std::string_view raw;
        b.Bytes(24, &raw);
        size_t len = (misc & (1u << 15)) ? static_cast<uint8_t>(raw[20]) : 20;
        id.build_id = std::string(raw.substr(0, std::min<size_t>(len, 20)));
        id.filename = CString(body.substr(28));
        info_.build_ids.push_back(std::move(id));
      }
      return true;
    }
    case abi::kFeatEventDesc: {
      uint32_t nr = 0, attr_size = 0;
      if (!c.Get(&nr) || !c.Get(&attr_size)) return true;
      if (attr_size < abi::kAttrSizeVer0 || attr_size > kMaxAttrSize) {
        *err = At(at + 4) + "event description attr size " +
               std::to_string(attr_size) + " is out of range";
        return false;
      }
      for (uint32_t i = 0; i < nr; ++i) {
        std::string_view attr_bytes;
        uint32_t nr_ids = 0;
        std::string name;
        if (!c.Bytes(attr_size, &attr_bytes) || !c.Get(&nr_ids) ||
            !str(&name) || nr_ids > c.left() / 8) {
          *err = At(c.offset()) + "event description " + std::to_string(i) +
                 " is cut short";
          return false;
        }
        uint64_t first_id = 0;
        for (uint32_t k = 0; k < nr_ids; ++k) {
          uint64_t id = 0;
          c.Get(&id);
          if (k == 0) first_id = id;
        }
        size_t target = i;
        if (nr_ids > 0) {
          auto it = std::lower_bound(id_index_.begin(), id_index_.end(),
                                     std::make_pair(first_id, size_t{0}));
          if (it != id_index_.end() && it->first == first_id) {
            target = it->second;
          }
        }
        if (target < info_.attrs.size()) {
          info_.attrs[target].name = name;
          info_.attrs_changes++;
        }
      }
      return true;
    }
    default:
      return true;
  }
}

bool PerfDataReader::ReadRecordHeader(std::string_view bytes, uint64_t at,
                                      RecordHeader* h, std::string* err) const {
  Cursor c(bytes, at, info_.swapped);
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
    Cursor b(body, offset + 8, info_.swapped);
    if (type == abi::kRecordHeaderTracingData) {
      uint32_t n = 0;
      b.Get(&n);
      extra = (uint64_t{n} + 7) & ~uint64_t{7};
    } else if (type == abi::kRecordAuxtrace) {
      b.Get(&extra);
    }
    if (!Deliver(rec, v, err)) return false;
    offset += size;
    while (extra > 0) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(extra, 1u << 20));
      std::string skip;
      if (!ReadFully(src_, n, &skip, err)) {
        *err = name_ + ": " + *err;
        return false;
      }
      offset += skip.size();
      extra -= skip.size();
      if (skip.size() < n) {
        truncated_ = "the input ends inside a record payload";
        return EnsureHeader(v, err);
      }
    }
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
      Cursor b(rec.body, base + pos + 8, info_.swapped);
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
      if (header_sent_) v->OnInfoChange();
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

// Pipe-mode records that carry what file mode keeps in its header.
bool PerfDataReader::HeaderRecord(const PerfRecord& rec, std::string* err) {
  Cursor c(rec.body, rec.offset + 8, info_.swapped);
  if (rec.type == abi::kRecordHeaderAttr) {
    if (header_sent_) {
      *err = At(rec.offset) + "event attribute after the first sample";
      return false;
    }
    PerfAttr a;
    if (!AddAttr(rec.body, rec.offset + 8, &a, err)) return false;
    Cursor sz(rec.body.substr(4), rec.offset + 12, info_.swapped);
    uint32_t size = 0;
    sz.Get(&size);
    if (size == 0) size = abi::kAttrSizeVer0;
    Cursor ids(rec.body.substr(size), rec.offset + 8 + size, info_.swapped);
    uint64_t id = 0;
    while (ids.Get(&id)) a.ids.push_back(id);
    if (info_.attrs.size() >= kMaxAttrs) {
      *err = At(rec.offset) + "too many event attributes";
      return false;
    }
    info_.attrs.push_back(std::move(a));
    info_.attrs_changes++;
    IndexIds();
    return true;
  }
  if (rec.type == abi::kRecordHeaderFeature) {
    uint64_t feat = 0;
    if (!c.Get(&feat)) return true;
    if (feat >= abi::kFeatLast) return true;
    return ReadFeature(static_cast<int>(feat), rec.body.substr(8),
                       rec.offset + 16, err);
  }
  // EVENT_UPDATE: u64 type, u64 id, then the payload; type 2 is a name.
  uint64_t type = 0, id = 0;
  if (!c.Get(&type) || !c.Get(&id) || type != 2) return true;
  auto it = std::lower_bound(id_index_.begin(), id_index_.end(),
                             std::make_pair(id, size_t{0}));
  if (it != id_index_.end() && it->first == id) {
    info_.attrs[it->second].name = CString(rec.body.substr(16));
    info_.attrs_changes++;
  }
  return true;
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

size_t PerfDataReader::AttrOf(const PerfRecord& rec) const {
  if (rec.attr != PerfRecord::kNoAttr) return rec.attr;
  if (info_.attrs.size() <= 1) return 0;
  uint64_t id = 0;
  if (rec.type == abi::kRecordSample) {
    if (sample_id_pos_ < 0) return 0;
    Cursor c(rec.body, rec.offset + 8, info_.swapped);
    if (!c.Skip(uint64_t(sample_id_pos_) * 8) || !c.Get(&id)) return 0;
  } else {
    if (trailer_id_pos_ < 0 || !info_.attrs[0].sample_id_all()) return 0;
    size_t back = static_cast<size_t>(trailer_id_pos_) * 8;
    if (rec.body.size() < back) return 0;
    Cursor c(rec.body.substr(rec.body.size() - back), 0, info_.swapped);
    c.Get(&id);
  }
  if (id == last_id_.first && last_id_.second != SIZE_MAX) {
    return last_id_.second;
  }
  auto it = std::lower_bound(id_index_.begin(), id_index_.end(),
                             std::make_pair(id, size_t{0}));
  size_t attr = it != id_index_.end() && it->first == id ? it->second : 0;
  last_id_ = {id, attr};
  return attr;
}

size_t PerfDataReader::AttrOfId(uint64_t id) const {
  auto it = std::lower_bound(id_index_.begin(), id_index_.end(),
                             std::make_pair(id, size_t{0}));
  return it != id_index_.end() && it->first == id ? it->second : SIZE_MAX;
}

bool PerfDataReader::ParseSample(const PerfRecord& rec, PerfSample* s,
                                 std::string* err) const {
  s->attr = AttrOf(rec);
  const PerfAttr& a = info_.attrs[s->attr];
  uint64_t st = a.sample_type;
  Cursor c(rec.body, rec.offset + 8, info_.swapped);
  // The fields the attr does not sample are absent, as perf's
  // evsel__parse_sample leaves them, not those of an earlier sample.
  s->ip = 0;
  s->pid = s->tid = UINT32_MAX;
  s->time = UINT64_MAX;
  s->id = 0;
  s->cpu = UINT32_MAX;
  s->callchain.clear();
  s->has_callchain = false;
  s->period = a.sample_period;  // perf's default when not sampled
  bool ok = true;
  auto cut = [&](const char* what) {
    *err = At(c.offset()) + "sample cut short in its " + what;
    return false;
  };
  uint64_t skip = 0;
  if (st & abi::kSampleIdentifier) ok = c.Get(&s->id);
  if (ok && (st & abi::kSampleIp)) ok = c.Get(&s->ip);
  if (ok && (st & abi::kSampleTid)) ok = c.Get(&s->pid) && c.Get(&s->tid);
  if (ok && (st & abi::kSampleTime)) ok = c.Get(&s->time);
  if (ok && (st & abi::kSampleAddr)) ok = c.Get(&skip);
  if (ok && (st & abi::kSampleId)) ok = c.Get(&s->id);
  if (ok && (st & abi::kSampleStreamId)) ok = c.Get(&skip);
  uint32_t res = 0;
  if (ok && (st & abi::kSampleCpu)) ok = c.Get(&s->cpu) && c.Get(&res);
  if (ok && (st & abi::kSamplePeriod)) ok = c.Get(&s->period);
  if (!ok) return cut("fixed fields");
  s->read_values.clear();
  if (st & abi::kSampleRead) {
    if (!ReadValues(a.read_format, &c, s)) return cut("read values");
  }
  if (st & abi::kSampleCallchain) {
    uint64_t nr = 0;
    if (!c.Get(&nr)) return cut("call chain");
    if (nr > c.left() / 8) {
      *err = At(c.offset() - 8) + "call chain length " + std::to_string(nr) +
             " is more than the " + std::to_string(c.left()) +
             " bytes left in the record";
      return false;
    }
    s->callchain.resize(nr);
    c.GetArray(s->callchain.data(), nr);  // nr fits: checked above
    s->has_callchain = true;
  }
  s->regs_abi = 0;
  s->user_regs.clear();
  s->user_stack = {};
  if (!(st & (abi::kSampleRegsUser | abi::kSampleStackUser))) return true;
  std::string what = ReadUserState(a, &c, s);
  if (!what.empty()) *err = At(c.offset()) + what;
  return what.empty();
}

bool PerfDataReader::ParseIdTrailer(const PerfRecord& rec, size_t fixed_size,
                                    PerfSample* s) const {
  if (info_.attrs.empty()) return false;
  const PerfAttr& a = info_.attrs[AttrOf(rec)];
  if (!a.sample_id_all()) return false;
  uint64_t st = a.sample_type;
  size_t n = std::popcount(st & (abi::kSampleTid | abi::kSampleTime |
                                 abi::kSampleId | abi::kSampleStreamId |
                                 abi::kSampleCpu | abi::kSampleIdentifier));
  if (rec.body.size() < fixed_size + n * 8) return false;
  size_t start = rec.body.size() - n * 8;
  Cursor c(rec.body.substr(start), rec.offset + 8 + start, info_.swapped);
  uint64_t skip = 0;
  uint32_t res = 0;
  if (st & abi::kSampleTid) c.Get(&s->pid), c.Get(&s->tid);
  if (st & abi::kSampleTime) c.Get(&s->time);
  if (st & abi::kSampleId) c.Get(&s->id);
  if (st & abi::kSampleStreamId) c.Get(&skip);
  if (st & abi::kSampleCpu) c.Get(&s->cpu), c.Get(&res);
  if (st & abi::kSampleIdentifier) c.Get(&s->id);
  return true;
}

uint64_t PerfDataReader::TimeOf(const PerfRecord& rec) const {
  if (info_.attrs.empty()) return UINT64_MAX;
  if (rec.type == abi::kRecordSample) {
    const PerfAttr& a = info_.attrs[AttrOf(rec)];
    uint64_t st = a.sample_type;
    if (!(st & abi::kSampleTime)) return UINT64_MAX;
    Cursor c(rec.body, 0, info_.swapped);
    uint64_t skip = std::popcount(st & (abi::kSampleIdentifier |
                                        abi::kSampleIp | abi::kSampleTid));
    uint64_t t = UINT64_MAX;
    if (!c.Skip(skip * 8) || !c.Get(&t)) return UINT64_MAX;
    return t;
  }
  PerfSample s;
  if (!ParseIdTrailer(rec, 0, &s)) return UINT64_MAX;
  return s.time;
}

bool PerfDataReader::ParseMmap(const PerfRecord& rec, PerfMmap* m,
                               std::string* err) const {
  Cursor c(rec.body, rec.offset + 8, info_.swapped);
  bool ok = c.Get(&m->pid) && c.Get(&m->tid) && c.Get(&m->start) &&
            c.Get(&m->len) && c.Get(&m->pgoff);
  m->prot = (rec.misc & abi::kMiscMmapData) ? 0 : 4;  // PROT_EXEC
  if (ok && rec.type == abi::kRecordMmap2) {
    std::string_view id;
    ok = c.Bytes(24, &id) && c.Get(&m->prot) && c.Get(&m->flags);
    if (ok && (rec.misc & abi::kMiscMmapBuildId)) {
      size_t len = std::min<size_t>(static_cast<uint8_t>(id[0]), 20);
      m->build_id = std::string(id.substr(4, len));
    }
  }
  if (!ok) {
    *err = At(rec.offset) + "mmap record cut short";
    return false;
  }
  std::string_view rest;
  c.Bytes(c.left(), &rest);
  m->filename = CString(rest);
  return true;
}

bool PerfDataReader::ParseComm(const PerfRecord& rec, PerfComm* m,
                               std::string* err) const {
  Cursor c(rec.body, rec.offset + 8, info_.swapped);
  if (!c.Get(&m->pid) || !c.Get(&m->tid)) {
    *err = At(rec.offset) + "comm record cut short";
    return false;
  }
  std::string_view rest;
  c.Bytes(c.left(), &rest);
  m->comm = CString(rest);
  m->exec = rec.misc & abi::kMiscCommExec;
  return true;
}

bool PerfDataReader::ParseFork(const PerfRecord& rec, PerfFork* m,
                               std::string* err) const {
  Cursor c(rec.body, rec.offset + 8, info_.swapped);
  if (!c.Get(&m->pid) || !c.Get(&m->ppid) || !c.Get(&m->tid) ||
      !c.Get(&m->ptid) || !c.Get(&m->time)) {
    *err = At(rec.offset) + "fork/exit record cut short";
    return false;
  }
  return true;
}

bool PerfDataReader::ParseLost(const PerfRecord& rec, uint64_t* lost,
                               std::string* err) const {
  constexpr uint16_t kMiscLostSamplesBpf = 1u << 15;
  Cursor c(rec.body, rec.offset + 8, info_.swapped);
  uint64_t id = 0;
  if ((rec.type == abi::kRecordLost && !c.Get(&id)) || !c.Get(lost)) {
    *err = At(rec.offset) + "lost record cut short";
    return false;
  }
  if (rec.type == abi::kRecordLostSamples && (rec.misc & kMiscLostSamplesBpf)) {
    *lost = 0;
  }
  return true;
}

}  // namespace flamefold
