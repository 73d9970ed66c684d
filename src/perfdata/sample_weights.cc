#include "perfdata/sample_weights.h"

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;

namespace {

// "kmem:kmalloc (call_site, ptr, ...); cycles (no fields: not a
// tracepoint)": what each event of `info` has, for a field it lacks.
std::string EventFieldList(const PerfDataInfo& info) {
  std::string out;
  for (const PerfAttr& a : info.attrs) {
    if (!out.empty()) out += "; ";
    out += a.name + " (";
    const TracepointFormat* format =
        a.type == abi::kTypeTracepoint ? info.tracepoints.Find(a.config)
                                       : nullptr;
    if (a.type != abi::kTypeTracepoint) {
      out += "no fields: not a tracepoint";
    } else if (!format) {
      out += "no format in the recording";
    } else {
      out += format->FieldNames();
    }
    out += ')';
  }
  return out;
}

}  // namespace

std::string NoFieldError(const PerfDataInfo& info, std::string message) {
  return info.tracepoints_error.empty() ? message : info.tracepoints_error;
}

bool SampleWeights::Init(std::string_view field, const PerfDataInfo& info,
                         const std::string& file, std::string* err) {
  fields_.assign(info.attrs.size(), nullptr);
  swapped_ = info.tracepoints.swapped();
  bool found = false;
  for (size_t i = 0; i < info.attrs.size(); ++i) {
    const PerfAttr& a = info.attrs[i];
    if (a.type != abi::kTypeTracepoint) continue;
    const TracepointFormat* format = info.tracepoints.Find(a.config);
    const TracepointField* f = format ? format->Field(field) : nullptr;
    if (!f || f->common()) continue;
    if (!f->integer()) {
      *err = file + ": --weight " + std::string(field) + ": the field of " +
             a.name + " is a " + f->type + " of " + std::to_string(f->size) +
             " bytes, not an integer of 1, 2, 4 or 8 bytes";
      return false;
    }
    fields_[i] = f;
    found = true;
  }
  if (found) return true;
  *err = NoFieldError(info, file + ": --weight " + std::string(field) +
                                ": no event of the recording has that "
                                "field; its events: " + EventFieldList(info));
  return false;
}

std::optional<uint64_t> SampleWeights::Of(size_t attr,
                                          std::string_view raw) const {
  if (attr >= fields_.size() || !fields_[attr]) return std::nullopt;
  const TracepointField& f = *fields_[attr];
  std::optional<uint64_t> v = ReadIntegerField(f, raw, swapped_);
  if (v && f.is_signed && static_cast<int64_t>(*v) < 0) return std::nullopt;
  return v;
}

}  // namespace flamefold
