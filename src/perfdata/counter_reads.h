// CounterReads: a sample that read counters (PERF_SAMPLE_READ), as perf
// script delivers it: one sample per counter read (each member of a group
// with -e '{a,b}:S'), of that counter's event, whose period is what the
// counter counted since its last sample; none where that is 0, nor for an
// id the recording does not list.
#ifndef FLAMEFOLD_PERFDATA_COUNTER_READS_H_
#define FLAMEFOLD_PERFDATA_COUNTER_READS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "perfdata/perf_data.h"

namespace flamefold {

/// One sample a counter read stands for: its event (an attr index) and
/// its period.
struct CounterRead {
  size_t attr;
  uint64_t period;
};

class CounterReads {
 public:
  /// The event of a counter's id, SIZE_MAX for an id not listed
  /// (PerfDataReader::AttrOfId).
  using AttrOfId = std::function<size_t(uint64_t id)>;

  /// The samples that one sample's counter `values` stand for, in their
  /// order, into `*reads` (cleared first). Each counter's value is kept
  /// for its next sample.
  void Read(const std::vector<PerfSample::ReadValue>& values,
            const AttrOfId& attr_of, std::vector<CounterRead>* reads);

 private:
  std::unordered_map<uint64_t, uint64_t> last_;  // each counter's, by id
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_COUNTER_READS_H_
