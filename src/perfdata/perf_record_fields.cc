// The record side of PerfDataReader: the fields of SAMPLE, MMAP, COMM,
// FORK/EXIT and LOST records and of the sample_id_all trailers, each read
// by the layout its attr gives.
#include "perfdata/perf_data.h"

#include <algorithm>
#include <bit>

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
using abi::CString;
using abi::PerfCursor;
namespace {

// A sample's read_format area. A group: nr, the times, then nr times
// { value, id, lost }; one counter: value, the times, id, lost (id and
// lost as read_format asks). The values are kept when they have ids.
bool ReadValues(uint64_t rf, PerfCursor* c, PerfSample* s) {
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

// The fixed fields of a sample, up to its period. The fields the attr does
// not sample are absent, as perf's evsel__parse_sample leaves them, not
// those of an earlier sample.
bool ReadFixedFields(const PerfAttr& a, PerfCursor* cp, PerfSample* s) {
  PerfCursor& c = *cp;
  const uint64_t st = a.sample_type;
  s->ip = 0;
  s->pid = s->tid = UINT32_MAX;
  s->time = UINT64_MAX;
  s->id = 0;
  s->cpu = UINT32_MAX;
  s->callchain.clear();
  s->has_callchain = false;
  s->period = a.sample_period;  // perf's default when not sampled
  bool ok = true;
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
  return ok;
}

// The fields after the raw data, up to the user stack (DWARF call
// graphs): branch stacks are skipped, the user registers and the stack
// copy kept. Every length is checked against the bytes left. Returns "" or
// what is wrong (the cursor is left where it was found).
std::string ReadUserState(const PerfAttr& a, PerfCursor* cp, PerfSample* s) {
  PerfCursor& c = *cp;
  uint64_t st = a.sample_type;
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

size_t PerfDataReader::AttrOf(const PerfRecord& rec) const {
  if (rec.attr != PerfRecord::kNoAttr) return rec.attr;
  if (info_.attrs.size() <= 1) return 0;
  uint64_t id = 0;
  if (rec.type == abi::kRecordSample) {
    if (sample_id_pos_ < 0) return 0;
    PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
    if (!c.Skip(uint64_t(sample_id_pos_) * 8) || !c.Get(&id)) return 0;
  } else {
    if (trailer_id_pos_ < 0 || !info_.attrs[0].sample_id_all()) return 0;
    size_t back = static_cast<size_t>(trailer_id_pos_) * 8;
    if (rec.body.size() < back) return 0;
    PerfCursor c(rec.body.substr(rec.body.size() - back), 0, info_.swapped);
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
  PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
  auto cut = [&](const char* what) {
    *err = At(c.offset()) + "sample cut short in its " + what;
    return false;
  };
  if (!ReadFixedFields(a, &c, s)) return cut("fixed fields");
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
  s->raw = {};
  if (st & abi::kSampleRaw) {  // u32 size, then the bytes (a tracepoint's)
    uint32_t size = 0;
    if (!c.Get(&size) || !c.Bytes(size, &s->raw)) return cut("raw data");
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
  PerfCursor c(rec.body.substr(start), rec.offset + 8 + start, info_.swapped);
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
    PerfCursor c(rec.body, 0, info_.swapped);
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
  PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
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
  PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
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
  PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
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
  PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
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
