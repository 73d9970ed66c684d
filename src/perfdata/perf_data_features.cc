#include "perfdata/perf_data_features.h"

#include <algorithm>

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace {

using perf_abi::CString;
using perf_abi::PerfCursor;

// A u32 length, then that many bytes, NUL-padded.
bool ReadString(PerfCursor* c, std::string* out) {
  uint32_t len = 0;
  std::string_view s;
  if (!c->Get(&len) || !c->Bytes(len, &s)) return false;
  *out = CString(s);
  return true;
}

// One BUILD_ID record (the 8-byte header read, at `at`): `body` is the rest.
PerfDataInfo::BuildId BuildIdRecord(std::string_view body, uint64_t at,
                                    uint16_t misc, bool swapped) {
  PerfCursor b(body, at + 8, swapped);
  PerfDataInfo::BuildId id;
  uint32_t pid = 0;
  b.Get(&pid);
  id.pid = static_cast<int32_t>(pid);
  std::string_view raw;
  b.Bytes(24, &raw);
  size_t len = (misc & (1u << 15)) ? static_cast<uint8_t>(raw[20]) : 20;
  id.build_id = std::string(raw.substr(0, std::min<size_t>(len, 20)));
  id.filename = CString(body.substr(28));
  return id;
}

std::string OffsetError(uint64_t offset, const std::string& what) {
  return "offset " + std::to_string(offset) + ": " + what;
}

}  // namespace

bool ReadFeatureString(const FeatureSection& sec, std::string* out) {
  PerfCursor c(sec.bytes, sec.offset, sec.swapped);
  return ReadString(&c, out);
}

void ReadFeatureStrings(const FeatureSection& sec,
                        std::vector<std::string>* out) {
  PerfCursor c(sec.bytes, sec.offset, sec.swapped);
  uint32_t nr = 0;
  c.Get(&nr);
  std::string s;
  for (uint32_t i = 0; i < nr && ReadString(&c, &s); ++i) out->push_back(s);
}

void ReadFeatureBuildIds(const FeatureSection& sec,
                         std::vector<PerfDataInfo::BuildId>* out) {
  PerfCursor c(sec.bytes, sec.offset, sec.swapped);
  while (c.left() >= 8) {
    uint64_t rec_at = c.offset();
    uint32_t type = 0;
    uint16_t misc = 0, size = 0;
    c.Get(&type);
    c.Get(&misc);
    c.Get(&size);
    std::string_view body;
    if (size < 8 + 4 + 24 || !c.Bytes(size - 8u, &body)) break;
    out->push_back(BuildIdRecord(body, rec_at, misc, sec.swapped));
  }
}

bool ReadFeatureEventDescriptions(const FeatureSection& sec,
                                  std::vector<EventDescription>* out,
                                  std::string* err) {
  PerfCursor c(sec.bytes, sec.offset, sec.swapped);
  uint32_t nr = 0, attr_size = 0;
  if (!c.Get(&nr) || !c.Get(&attr_size)) return true;
  if (attr_size < perf_abi::kAttrSizeVer0 || attr_size > kMaxPerfAttrSize) {
    *err = OffsetError(sec.offset + 4, "event description attr size " +
                                           std::to_string(attr_size) +
                                           " is out of range");
    return false;
  }
  for (uint32_t i = 0; i < nr; ++i) {
    std::string_view attr_bytes;
    uint32_t nr_ids = 0;
    EventDescription desc;
    if (!c.Bytes(attr_size, &attr_bytes) || !c.Get(&nr_ids) ||
        !ReadString(&c, &desc.name) || nr_ids > c.left() / 8) {
      *err = OffsetError(c.offset(), "event description " +
                                         std::to_string(i) + " is cut short");
      return false;
    }
    for (uint32_t k = 0; k < nr_ids; ++k) {
      uint64_t id = 0;
      c.Get(&id);
      if (k == 0) desc.first_id = id;
    }
    out->push_back(std::move(desc));
  }
  return true;
}

}  // namespace flamefold
