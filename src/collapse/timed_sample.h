// TimedSample: each sample as SampleFold folds it, with its time, for the
// views that keep time beside the folded counts.
#ifndef FLAMEFOLD_COLLAPSE_TIMED_SAMPLE_H_
#define FLAMEFOLD_COLLAPSE_TIMED_SAMPLE_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "base/perl_number.h"
#include "base/string_interner.h"

namespace flamefold {

// Each sample as it is folded, with its time: what views that keep time
// (the heat map, per-thread timelines) read beside the folded counts.
struct TimedSample {
  uint64_t time_ns = UINT64_MAX;   // UINT64_MAX: the input has no time
  int32_t pid = -1, tid = -1;      // -1: not known
  std::string_view comm;           // the process name as read
  std::span<const SymbolId> frames;  // as handed to SampleSink::OnSample: root first
  PerlNumber weight;               // the count the sample adds
};

class TimedSampleSink {
 public:
  virtual ~TimedSampleSink() = default;
  virtual void OnTimedSample(const TimedSample& s) = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_TIMED_SAMPLE_H_
