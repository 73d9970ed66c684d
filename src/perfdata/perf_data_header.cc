// The header side of PerfDataReader: the attrs (file mode: the attr
// section; pipe mode: HEADER_ATTR records), the feature sections, and the
// names of events.
#include "perfdata/perf_data.h"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "perfdata/perf_abi.h"
#include "perfdata/perf_data_features.h"

namespace flamefold {
namespace abi = perf_abi;
using abi::CString;
using abi::PerfCursor;
namespace {

constexpr uint64_t kMaxAttrs = 65536;  // more is corruption, not a big file

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

// The field of `info` a string feature fills; nullptr for other features.
std::string* StringFeature(int feat, PerfDataInfo* info) {
  switch (feat) {
    case abi::kFeatHostname: return &info->hostname;
    case abi::kFeatOsRelease: return &info->os_release;
    case abi::kFeatVersion: return &info->perf_version;
    case abi::kFeatArch: return &info->arch;
    default: return nullptr;
  }
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

bool PerfDataReader::ReadAttrs(std::string_view file, std::string* err) {
  PerfCursor h(file.substr(16), 16, info_.swapped);
  uint64_t attr_size = 0, off = 0, size = 0;
  h.Get(&attr_size);
  h.Get(&off);
  h.Get(&size);
  if (attr_size < abi::kAttrSizeVer0 + 16 || attr_size > kMaxPerfAttrSize) {
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
    PerfCursor ids(file.substr(at + attr_size - 16, 16), at + attr_size - 16,
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
    PerfCursor list(file.substr(ids_off, ids_size), ids_off, info_.swapped);
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
  PerfCursor c(bytes, at, info_.swapped);
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
      PerfCursor f(bytes.substr(off, 8), at + off, info_.swapped);
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
  PerfCursor bits(file.substr(72, 32), 72, info_.swapped);
  uint64_t words[4] = {};
  for (uint64_t& w : words) bits.Get(&w);
  for (int feat = 0; feat < abi::kFeatLast; ++feat) {
    if (!((words[feat / 64] >> (feat % 64)) & 1)) continue;
    if (at > file.size() || file.size() - at < 16) {
      truncated_ = "the feature sections are cut short";
      return true;
    }
    PerfCursor s(file.substr(at, 16), at, info_.swapped);
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
  const FeatureSection section{sec, at, info_.swapped};
  if (std::string* text = StringFeature(feat, &info_)) {
    ReadFeatureString(section, text);
    return true;
  }
  switch (feat) {
    case abi::kFeatCmdline:
      ReadFeatureStrings(section, &info_.cmdline);
      return true;
    case abi::kFeatBuildId:
      ReadFeatureBuildIds(section, &info_.build_ids);
      return true;
    case abi::kFeatEventDesc:
      return NameEvents(sec, at, err);
    case abi::kFeatSampleTime: {  // both or neither
      PerfCursor c(sec, at, info_.swapped);
      uint64_t first = 0, last = 0;
      if (c.Get(&first) && c.Get(&last) && first <= last) {
        info_.first_sample_time = first;
        info_.last_sample_time = last;
      }
      return true;
    }
    default:
      return true;
  }
}

// EVENT_DESC: each description names the attr holding its first id, else
// the attr of its own place.
bool PerfDataReader::NameEvents(std::string_view sec, uint64_t at,
                                std::string* err) {
  std::vector<EventDescription> events;
  if (!ReadFeatureEventDescriptions({sec, at, info_.swapped}, &events, err)) {
    *err = name_ + ": " + *err;
    return false;
  }
  for (size_t i = 0; i < events.size(); ++i) {
    size_t target = i;
    if (events[i].first_id) {
      const uint64_t first_id = *events[i].first_id;
      auto it = std::lower_bound(id_index_.begin(), id_index_.end(),
                                 std::make_pair(first_id, size_t{0}));
      if (it != id_index_.end() && it->first == first_id) {
        target = it->second;
      }
    }
    if (target < info_.attrs.size()) {
      info_.attrs[target].name = events[i].name;
      info_.attrs_changes++;
    }
  }
  return true;
}
// Pipe-mode records that carry what file mode keeps in its header.
bool PerfDataReader::HeaderRecord(const PerfRecord& rec, std::string* err) {
  PerfCursor c(rec.body, rec.offset + 8, info_.swapped);
  if (rec.type == abi::kRecordHeaderAttr) {
    if (header_sent_) {
      *err = At(rec.offset) + "event attribute after the first sample";
      return false;
    }
    PerfAttr a;
    if (!AddAttr(rec.body, rec.offset + 8, &a, err)) return false;
    PerfCursor sz(rec.body.substr(4), rec.offset + 12, info_.swapped);
    uint32_t size = 0;
    sz.Get(&size);
    if (size == 0) size = abi::kAttrSizeVer0;
    PerfCursor ids(rec.body.substr(size), rec.offset + 8 + size, info_.swapped);
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

}  // namespace flamefold
