// --off-cpu on perf.data: the fields of sched:sched_switch that a wait
// needs (prev_pid, next_pid, prev_state), read from each sample's raw data
// by the event's format, as --weight reads its field (sample_weights.h).
#ifndef FLAMEFOLD_PERFDATA_SCHED_FIELDS_H_
#define FLAMEFOLD_PERFDATA_SCHED_FIELDS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collapse/recorded_sample.h"
#include "perfdata/perf_data.h"
#include "perfdata/tracepoint_formats.h"

namespace flamefold {

/// How sched_switch's print fmt names prev_state's bits: its
/// __print_flags table ({ 0x00000001, "S" }, ...), and the bit after the
/// table's last, which prints "+" (a task preempted in the kernel); the
/// state is "R" when no bit below that one is set.
struct PrevStateNames {
  std::vector<std::pair<uint64_t, std::string>> flags;
  uint64_t preempted = 0;
};
/// The names the print fmt `print_fmt` gives; without a __print_flags
/// table in it, those of the kernels since 4.14: S 0x1, D 0x2, T 0x4,
/// t 0x8, X 0x10, Z 0x20, P 0x40, I 0x80, "+" 0x100.
PrevStateNames PrevStateNamesOf(std::string_view print_fmt);
/// prev_state as perf script prints it from the raw value `state`: the
/// names of its bits separated by "|", or "R"; then "+" when preempted.
/// NUL-padded, cut to 7 characters.
std::array<char, 8> PrevStateText(uint64_t state, const PrevStateNames& names);

class SchedFields {
 public:
  /// Finds the fields in the format of each sched:sched_switch event of
  /// `info` (which must outlive this), the recording `file`. False with
  /// `*err` when the tracing data is damaged, when the recording has no
  /// such event (the message lists its events) or when its format lacks
  /// an integer field of the three.
  bool Init(const PerfDataInfo& info, const std::string& file,
            std::string* err);

  /// The fields of a sample of attr `attr` with the raw data `raw`; none
  /// for another event or raw data too short for them.
  std::optional<SchedSwitch> Of(size_t attr, std::string_view raw) const;

 private:
  struct Fields {
    const TracepointField *prev_pid, *next_pid, *prev_state;
    PrevStateNames states;
  };
  std::vector<std::optional<Fields>> fields_;  // by attr
  bool swapped_ = false;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SCHED_FIELDS_H_
