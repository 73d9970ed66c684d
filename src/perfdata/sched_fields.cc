#include "perfdata/sched_fields.h"

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;

namespace {

// The integer field `name` of `format`; nullptr with `*missing` set to the
// name when it has none.
const TracepointField* IntegerField(const TracepointFormat& format,
                                    std::string_view name,
                                    std::string* missing) {
  const TracepointField* f = format.Field(name);
  if (f && f->integer()) return f;
  if (missing->empty()) *missing = std::string(name);
  return nullptr;
}

}  // namespace

bool SchedFields::Init(const PerfDataInfo& info, const std::string& file,
                       std::string* err) {
  fields_.assign(info.attrs.size(), std::nullopt);
  swapped_ = info.tracepoints.swapped();
  std::string events;
  bool found = false;
  for (size_t i = 0; i < info.attrs.size(); ++i) {
    const PerfAttr& a = info.attrs[i];
    if (!events.empty()) events += ", ";
    events += a.name;
    if (a.type != abi::kTypeTracepoint) continue;
    const TracepointFormat* format = info.tracepoints.Find(a.config);
    if (!format || format->name != "sched_switch") continue;
    std::string missing;
    Fields f{IntegerField(*format, "prev_pid", &missing),
             IntegerField(*format, "next_pid", &missing),
             IntegerField(*format, "prev_state", &missing)};
    if (!missing.empty()) {
      *err = file + ": --off-cpu: " + a.name + " has no integer field " +
             missing + "; its fields: " + format->FieldNames();
      return false;
    }
    fields_[i] = f;
    found = true;
  }
  if (found) return true;
  if (!info.tracepoints_error.empty()) {
    *err = info.tracepoints_error;
  } else {
    *err = file + ": --off-cpu: no sched:sched_switch samples: the "
           "recording's events are " + events +
           " (perf record -e sched:sched_switch -g)";
  }
  return false;
}

std::optional<SchedSwitch> SchedFields::Of(size_t attr,
                                           std::string_view raw) const {
  if (attr >= fields_.size() || !fields_[attr]) return std::nullopt;
  const Fields& f = *fields_[attr];
  std::optional<uint64_t> prev = ReadIntegerField(*f.prev_pid, raw, swapped_);
  std::optional<uint64_t> next = ReadIntegerField(*f.next_pid, raw, swapped_);
  std::optional<uint64_t> state =
      ReadIntegerField(*f.prev_state, raw, swapped_);
  if (!prev || !next || !state) return std::nullopt;
  SchedSwitch s;
  s.prev_pid = static_cast<int32_t>(*prev);
  s.next_pid = static_cast<int32_t>(*next);
  s.state = PrevStateText(*state);
  return s;
}

std::array<char, 8> PrevStateText(uint64_t state) {
  static constexpr char kLetters[] = "SDTtXZPI";
  std::array<char, 8> out{};
  size_t n = 0;
  for (size_t bit = 0; bit < 8; ++bit) {
    if (!(state & (1u << bit))) continue;
    if (n > 0 && n + 1 < out.size() - 1) out[n++] = '|';
    if (n + 1 < out.size() - 1) out[n++] = kLetters[bit];
  }
  if (n == 0) out[n++] = 'R';
  if (state & 0x100) out[n++] = '+';
  return out;
}

}  // namespace flamefold
