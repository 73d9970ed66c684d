#include "perfdata/counter_reads.h"

namespace flamefold {

void CounterReads::Read(const std::vector<PerfSample::ReadValue>& values,
                        const AttrOfId& attr_of,
                        std::vector<CounterRead>* reads) {
  reads->clear();
  for (const PerfSample::ReadValue& v : values) {
    const size_t attr = attr_of(v.id);
    if (attr == SIZE_MAX) continue;
    uint64_t& last = last_[v.id];
    const uint64_t period = v.value - last;
    last = v.value;
    if (period != 0) reads->push_back({attr, period});
  }
}

}  // namespace flamefold
