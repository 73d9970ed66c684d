// SampleHandover: the held samples, their frames all named, on their way
// to the fold (or out as perf script's text), in order: each at once on
// the replay's thread, or, with a fold and more than one core, in batches
// to the fold thread (FoldThread) while the replay names the next
// samples' frames. The recording's events go to the fold before the
// samples that use them.
#ifndef FLAMEFOLD_PERFDATA_SAMPLE_HANDOVER_H_
#define FLAMEFOLD_PERFDATA_SAMPLE_HANDOVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "collapse/recorded_sample.h"
#include "perfdata/fold_thread.h"
#include "perfdata/frame_resolver.h"
#include "perfdata/held_samples.h"
#include "perfdata/perf_data.h"
#include "perfdata/recorded_samples.h"

namespace flamefold {

/// Receives a chunk of text. It may keep the chunk's buffer, swapping in
/// another (whose content is then dropped), so that chunks move between
/// threads without copies; false stops the rendering.
using ChunkSink = std::function<bool(std::string* chunk)>;

class SampleHandover {
 public:
  /// The samples go to `sink` when set, else as text through `emit`, with
  /// the events of `info` (the reader's, read again as they change);
  /// `frames` named their frames. `fold_thread`: the fold thread may be
  /// used. All must outlive this.
  SampleHandover(const PerfDataInfo& info, const FrameResolver& frames,
                 RecordedSampleSink* sink, const ChunkSink& emit,
                 bool fold_thread);
  SampleHandover(const SampleHandover&) = delete;
  SampleHandover& operator=(const SampleHandover&) = delete;

  /// Where the next sample is held (HeldSamples::Begin, then its frames).
  HeldSamples* held() { return &held_; }

  /// The events the fold has, brought up to date (the fold thread must
  /// not be running).
  void SyncEvents();
  /// Before a sample is held: where the events changed while the fold
  /// thread runs, the samples before go with the events they had.
  bool BeforeSample(std::string* err);
  /// The sample just held goes on; `nul`: its header or a frame holds a
  /// NUL byte, which the fold may refuse.
  bool AfterSample(bool nul, std::string* err);
  /// --off-cpu: a switch-in of `tid` at `time`, held among the samples so
  /// that the fold takes it in its place.
  bool HoldSwitchIn(int32_t tid, uint64_t time, std::string* err);
  /// Once every record was replayed: lets the held samples go and emits
  /// the text not yet emitted.
  bool Finish(std::string* err);
  /// Sends the fold thread the samples held, waits for it to put every
  /// sample and stops it; false with the error it met, if any.
  bool StopFoldThread(std::string* err);

  /// The frames shown, counted as each sample is put.
  uint64_t frame_count() const { return recorded_.frame_count(); }

 private:
  bool LetGo(std::string* err);
  bool SendHeldInBatches(std::string* err);
  bool PassOn(bool nul, std::string* err);
  void SendHeld();
  bool MayRefuse(const HeldSample& s) const;
  bool PutSample(size_t i, std::string* err);
  bool EmitPending(std::string* err);

  const PerfDataInfo& info_;
  const FrameResolver& frames_;
  const ChunkSink& emit_;
  HeldSamples held_;  // the samples not yet let go
  RecordedSamples recorded_;  // the held samples to the fold, or as text
  uint64_t events_given_ = UINT64_MAX;  // the attrs_changes of its events
  // Whether the fold thread may be used, and it once started (LetGo).
  const bool fold_thread_allowed_;
  std::unique_ptr<FoldThread> fold_thread_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SAMPLE_HANDOVER_H_
