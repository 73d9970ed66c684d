// HeldSamples: samples made ready to print, their frames named, kept in
// their order until they go to the fold: each at once on the replay's
// thread, or a batch at a time to the fold thread (FoldThread).
#ifndef FLAMEFOLD_PERFDATA_HELD_SAMPLES_H_
#define FLAMEFOLD_PERFDATA_HELD_SAMPLES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"
#include "collapse/recorded_sample.h"
#include "perfdata/frame_resolver.h"

namespace flamefold {

/// A frame of a held sample: a call-chain frame, or an unwound one with
/// its inlined frames.
struct HeldFrame {
  enum class Kind : uint8_t { kNamed, kUnwound };
  Kind kind = Kind::kNamed;
  union {
    FrameText* named = nullptr;
    UnwoundText* unwound;
  };
};

/// The fields of a sample's header, for a fold that takes them rather than
/// the text (RecordedSample's).
struct HeaderValues {
  uint64_t period;
  uint32_t attr;  // the event's index in the recording's attrs
  int32_t pid, tid, cpu;
  uint64_t time;     // UINT64_MAX: none
  uint64_t ordinal;  // the sample's number, from 1
  uint64_t offset;   // of its record
  std::optional<uint64_t> weight = std::nullopt;  // RecordedSample's
  std::optional<SchedSwitch> sched = std::nullopt;  // RecordedSample's
  /// --off-cpu: no sample but a PERF_RECORD_SWITCH IN of `tid` at `time`
  /// (RecordedSampleSink::SwitchIn), held in its place among the samples.
  bool switch_in = false;
};

/// A held sample: its header line (or its comm and HeaderValues) and its
/// frames, as HeldSamples hands them back.
struct HeldSample {
  std::string_view header;  // the header line without its '\n'; the comm
  const HeaderValues* values;  // nullptr: `header` is the line
  bool chain;  // the frames are stack lines; else one frame ends the header
  const HeldFrame* frames;
  size_t frame_count;
};

/// Samples are held in arrays that grow without copying (BigArray).
class HeldSamples {
 public:
  /// Starts a sample, which takes the frames added until the next one
  /// begins; its header line is written into header(), or its comm, when
  /// `values` (then kept) are given.
  void Begin(bool chain, const HeaderValues* values = nullptr);
  std::string* header() { return &headers_; }
  void AddNamed(FrameText* f) { Add(HeldFrame::Kind::kNamed)->named = f; }
  void AddUnwound(UnwoundText* u) {
    Add(HeldFrame::Kind::kUnwound)->unwound = u;
  }
  bool empty() const { return samples_.empty(); }
  size_t size() const { return samples_.size(); }
  /// Adds a copy of `s` (from another HeldSamples).
  void Append(const HeldSample& s);
  /// The held sample `i` (0: the first held).
  HeldSample at(size_t i) const;
  /// Forgets every held sample, keeping the memory for the next ones.
  void Clear();

 private:
  // A sample: where its header and frames begin (each ends where the
  // next sample's begin). The arrays hold a batch of samples, far below
  // 4 GiB.
  struct Entry {
    HeaderValues values;
    uint32_t header_begin, frames_begin;
    bool chain, has_values;
  };
  HeldFrame* Add(HeldFrame::Kind kind) {
    HeldFrame f;
    f.kind = kind;
    frames_.push_back(f);
    return &frames_[frames_.size() - 1];
  }

  std::string headers_;
  BigArray<HeldFrame> frames_;
  BigArray<Entry> samples_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_HELD_SAMPLES_H_
