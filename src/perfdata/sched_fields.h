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
#include <vector>

#include "collapse/recorded_sample.h"
#include "perfdata/perf_data.h"
#include "perfdata/tracepoint_formats.h"

namespace flamefold {

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
  };
  std::vector<std::optional<Fields>> fields_;  // by attr
  bool swapped_ = false;
};

/// prev_state as perf script prints it from the raw value: the letters of
/// its bits (S 0x1, D 0x2, T 0x4, t 0x8, X 0x10, Z 0x20, P 0x40, I 0x80,
/// "|" between two), R when none of them is set, and "+" after for 0x100
/// (a task preempted in the kernel). The bits are those of the kernels'
/// TASK_REPORT since 4.14, which the format's print fmt spells out.
std::array<char, 8> PrevStateText(uint64_t state);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SCHED_FIELDS_H_
