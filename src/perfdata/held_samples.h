// HeldSamples: samples made ready to print but for the names of some frames,
// kept in their order while what names them is still being read on another
// thread: the kernel symbols (the kernel formats all of /proc/kallsyms as it
// is read, which is slow next to a replay) and the debug files of unwound
// frames (a compressed debug file, libc's say, is inflated before it is
// read). Holding the samples lets the replay go on meanwhile instead of
// waiting at the first such frame; those frames are named when the samples
// are let go. So are the frames of user DSOs whose symbols another thread is
// still loading. A sample whose frames can all be named may go ahead of the
// held ones when that changes nothing the fold keeps (see
// Replayer::MayGoAhead): it is then marked gone and keeps its place.
#ifndef FLAMEFOLD_PERFDATA_HELD_SAMPLES_H_
#define FLAMEFOLD_PERFDATA_HELD_SAMPLES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"
#include "perfdata/frame_texts.h"

namespace flamefold {

/// A frame of a held sample: already named (a call-chain frame, or an
/// unwound one with its inlined frames), or to be named when the sample is
/// let go: a kernel address, or an unwound frame (its key in
/// HeldSamples::later()).
struct HeldFrame {
  enum class Kind : uint8_t {
    kNamed,
    kUnwound,
    kKernel,
    kNamedLater,  // a frame of a DSO still loading (its key in later())
    kUnwoundLater,
  };
  Kind kind = Kind::kNamed;
  union {
    FrameText* named = nullptr;
    UnwoundText* unwound;
    uint64_t kernel_ip;
    size_t later;
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
};

/// A held sample: its header line (or its comm and HeaderValues) and its
/// frames, as HeldSamples hands them back.
struct HeldSample {
  std::string_view header;  // the header line without its '\n'; the comm
  const HeaderValues* values;  // nullptr: `header` is the line
  bool chain;  // the frames are stack lines; else one frame ends the header
  const HeldFrame* frames;
  size_t frame_count;
  // Whether it went ahead of the samples held before it (MarkGone).
  bool gone;
};

/// Samples are held in arrays that grow without copying (BigArray), so that
/// holding a whole recording's samples while the kernel symbols are read
/// faults in their memory once, not again in fresh pages at every growth.
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
  void AddKernel(uint64_t ip) {
    Add(HeldFrame::Kind::kKernel)->kernel_ip = ip;
    kernel_frames_ = true;
  }
  void AddUnwoundLater(const FrameKey& k) {
    AddLater(HeldFrame::Kind::kUnwoundLater, k);
  }
  void AddNamedLater(const FrameKey& k) {
    AddLater(HeldFrame::Kind::kNamedLater, k);
    named_later_ = true;
  }
  bool empty() const { return samples_.empty(); }
  size_t size() const { return samples_.size(); }
  /// Whether a held sample has a kernel frame to name.
  bool kernel_frames() const { return kernel_frames_; }
  /// Whether a held sample has an unwound frame to name.
  bool unwound_later() const { return unwound_later_; }
  /// Whether a held sample has a frame of a DSO still loading to name.
  bool named_later() const { return named_later_; }
  /// The keys of the frames to name later (unwound, or of a DSO loading),
  /// by HeldFrame::later.
  const FrameKey& later(size_t i) const { return later_[i]; }
  size_t later_count() const { return later_.size(); }
  /// The memory the held samples take, about.
  size_t bytes() const {
    return headers_.size() + frames_.size() * sizeof(HeldFrame) +
           later_.size() * sizeof(FrameKey) + samples_.size() * sizeof(Entry);
  }
  /// Adds a copy of `s` (from another HeldSamples), whose frames must all
  /// be named, unless it is gone.
  void Append(const HeldSample& s);
  /// The held sample `i` (0: the first held).
  HeldSample at(size_t i) const;
  /// The frames of the held sample `i`, to name in place.
  HeldFrame* MutableFrames(size_t i) {
    return frames_.data() + samples_[i].frames_begin;
  }
  /// Whether every held sample has its header's fields (HeaderValues), a
  /// call chain, and the event `attr`.
  bool AllPlain(uint32_t attr) const {
    return plain_attr_ == static_cast<int64_t>(attr);
  }
  /// Records that the held sample `i` went ahead of those before it: at(i)
  /// is then gone. The last sample's header and frames are forgotten then,
  /// so that samples going ahead one by one take no room.
  void MarkGone(size_t i) {
    Entry& e = samples_[i];
    e.gone = true;
    ++gone_;
    if (i + 1 == samples_.size()) {
      headers_.resize(e.header_begin);
      frames_.resize_for_overwrite(e.frames_begin);
    }
  }
  /// How many held samples are gone.
  size_t gone() const { return gone_; }
  /// Forgets every held sample, keeping the memory for the next ones.
  void Clear();

 private:
  // A sample: where its header and frames begin (each ends where the
  // next sample's begin). The arrays stay below kMaxHeldBytes (the
  // replay's), far below 4 GiB.
  struct Entry {
    HeaderValues values;
    uint32_t header_begin, frames_begin;
    bool chain, has_values, gone;
  };
  // AllPlain's attr; kMixed once the held samples differ, or one's header
  // is a line.
  static constexpr int64_t kNone = -1, kMixed = -2;
  void AddLater(HeldFrame::Kind kind, const FrameKey& k) {
    Add(kind)->later = later_.size();
    later_.push_back(k);
    unwound_later_ |= kind == HeldFrame::Kind::kUnwoundLater;
  }
  HeldFrame* Add(HeldFrame::Kind kind) {
    HeldFrame f;
    f.kind = kind;
    frames_.push_back(f);
    return &frames_[frames_.size() - 1];
  }

  std::string headers_;
  BigArray<HeldFrame> frames_;
  BigArray<FrameKey> later_;
  BigArray<Entry> samples_;
  bool kernel_frames_ = false, unwound_later_ = false, named_later_ = false;
  int64_t plain_attr_ = kNone;
  size_t gone_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_HELD_SAMPLES_H_
