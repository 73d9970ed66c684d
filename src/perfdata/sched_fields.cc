#include "perfdata/sched_fields.h"

#include <algorithm>
#include <charconv>

#include "perfdata/perf_abi.h"
#include "perfdata/sample_weights.h"

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
             IntegerField(*format, "prev_state", &missing),
             PrevStateNamesOf(format->print_fmt)};
    if (!missing.empty()) {
      *err = file + ": --off-cpu: " + a.name + " has no integer field " +
             missing + "; its fields: " + format->FieldNames();
      return false;
    }
    fields_[i] = f;
    found = true;
  }
  if (found) return true;
  *err = NoFieldError(info, file + ": --off-cpu: no sched:sched_switch "
                                   "samples: the recording's events are " +
                                   events +
                                   " (perf record -e sched:sched_switch -g)");
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
  s.state = PrevStateText(*state, f.states);
  return s;
}

// The table of sched_switch's print fmt (Linux 6.18's, one line):
//   ... (REC->prev_state & ((((0x00000000 | 0x00000001 | ... | 0x00000040)
//   + 1) << 1) - 1)) ? __print_flags(REC->prev_state & (...), "|",
//   { 0x00000001, "S" }, { 0x00000002, "D" }, ..., { 0x00000080, "I" }) :
//   "R", REC->prev_state & (...) ? "+" : "", ...
// The kernel's TASK_REPORT_MAX, which prints "+", is twice its last flag
// (TASK_REPORT_IDLE) in every kernel whose table ends in "I".
PrevStateNames PrevStateNamesOf(std::string_view print_fmt) {
  PrevStateNames names;
  size_t at = print_fmt.find("__print_flags(");
  while (at != std::string_view::npos) {
    at = print_fmt.find("{ 0x", at);
    if (at == std::string_view::npos) break;
    const char* begin = print_fmt.data() + at + 4;
    uint64_t bit = 0;
    auto r = std::from_chars(begin, print_fmt.data() + print_fmt.size(), bit,
                             16);
    size_t open = print_fmt.find('"', r.ptr - print_fmt.data());
    size_t close = open == std::string_view::npos
                       ? open
                       : print_fmt.find('"', open + 1);
    if (r.ec != std::errc() || bit == 0 || close == std::string_view::npos) {
      break;
    }
    names.flags.emplace_back(bit,
                             std::string(print_fmt.substr(open + 1,
                                                          close - open - 1)));
    names.preempted = std::max(names.preempted, bit << 1);
    at = close;
  }
  if (!names.flags.empty()) return names;
  static constexpr char kLetters[] = "SDTtXZPI";
  for (size_t i = 0; i < 8; ++i) {
    names.flags.emplace_back(uint64_t{1} << i, std::string(1, kLetters[i]));
  }
  names.preempted = 0x100;
  return names;
}

std::array<char, 8> PrevStateText(uint64_t state,
                                  const PrevStateNames& names) {
  std::string text;
  for (const auto& [bit, name] : names.flags) {
    if (!(state & bit & (names.preempted - 1))) continue;
    if (!text.empty()) text += '|';
    text += name;
  }
  if (text.empty()) text = "R";
  if (state & names.preempted) text += '+';
  std::array<char, 8> out{};
  text.copy(out.data(), out.size() - 1);
  return out;
}

}  // namespace flamefold
