// RecordedSamples: the last step of the replay, a held sample whose frames are
// all named handed to the fold as a RecordedSample (its header's fields and
// its frames), or written as the lines perf script prints for it. It
// touches nothing of the replay but the frames and their counters of
// frames without a symbol, so it may run on a thread of its own
// (FoldThread) while the replay names the next samples' frames.
#ifndef FLAMEFOLD_PERFDATA_RECORDED_SAMPLES_H_
#define FLAMEFOLD_PERFDATA_RECORDED_SAMPLES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collapse/recorded_sample.h"
#include "perfdata/frame_resolver.h"
#include "perfdata/held_samples.h"
#include "perfdata/perf_data.h"

namespace flamefold {

// Cache-line aligned (so its size is whole lines too): on its thread it
// writes its members at every sample, which must not share a line with
// the replay's.
class alignas(64) RecordedSamples {
 public:
  /// The samples go to `sink` when set, else into text().
  explicit RecordedSamples(RecordedSampleSink* sink);

  /// The recording's events, by attr index (copied: a pipe-mode recording
  /// adds events while it is read). Before the first Put, and again when
  /// they change.
  void SetEvents(const std::vector<PerfAttr>& attrs);

  /// The sample `s`. False with `*err` once the fold refused a sample.
  bool Put(const HeldSample& s, std::string* err);

  /// A sample's header fields `v`, of a thread named `comm`, as the fold
  /// takes them (no frames).
  static RecordedSample HeaderOf(const HeaderValues& v, std::string_view comm,
                                 bool chain);

  /// The text written (no sink), for the caller to hand on and clear.
  std::string* text() { return &out_; }
  /// The frames shown, counted as each sample is put.
  uint64_t frame_count() const { return frame_count_; }

  /// The event of a PerfAttr, with the header fields perf script shows.
  static RecordedEvent EventOf(const PerfAttr& a);

 private:
  // The sample `s` as the fold takes it (its header's fields: `s.values`;
  // the frames' pointers in `*frames`).
  static RecordedSample Recorded(const HeldSample& s,
                                 std::vector<const RecordedFrame*>* frames);
  void PutText(const HeldSample& s);
  void CountFrames(const HeldSample& s);
  void CountFrame(uint64_t* no_symbol, uint64_t frames = 1);

  RecordedSampleSink* sink_;  // nullptr: text
  std::vector<RecordedEvent> events_;
  std::string out_;  // the text not yet handed on
  std::vector<const RecordedFrame*> frames_;  // Put's sample's
  uint64_t frame_count_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_RECORDED_SAMPLES_H_
