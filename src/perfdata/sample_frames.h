// SampleFrames: a sample's frames as perf script shows them, held for the
// fold: the call chain walked callee first, switching between kernel and
// user maps at the PERF_CONTEXT markers (a guest or corrupt context drops
// the chain; at most 127 frames), then, for --call-graph dwarf, the user
// frames unwound from the sample's registers and stack copy, each with the
// frames inlined there; a sample without a call chain has its one frame.
// Frames are named by FrameResolver in the thread's maps (ThreadMaps).
#ifndef FLAMEFOLD_PERFDATA_SAMPLE_FRAMES_H_
#define FLAMEFOLD_PERFDATA_SAMPLE_FRAMES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "perfdata/frame_resolver.h"
#include "perfdata/held_samples.h"
#include "perfdata/perf_data.h"
#include "perfdata/recording_stats.h"
#include "perfdata/sample_unwinder.h"
#include "perfdata/thread_maps.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

class SampleFrames {
 public:
  /// Frames are named from `symbols` in the maps of `threads`, as `style`
  /// says; DWARF unwinding is counted in `stats`. All must outlive this.
  SampleFrames(SymbolResolver* symbols, ThreadMaps* threads,
               FrameResolver::Style style, PerfDataStats* stats);

  /// The registers' layout of the recording's arch (nullptr: unknown, and
  /// --call-graph dwarf samples are not unwound but counted).
  void SetArch(const RegisterMap* arch);

  /// Adds the frames of sample `s`, of event `a`, in thread `t`, taken in
  /// `cpumode`, to the sample `held` began last.
  void Hold(const Thread* t, const PerfAttr& a, const PerfSample& s,
            uint8_t cpumode, HeldSamples* held);
  /// Whether a frame Hold added last has a NUL byte, which the fold may
  /// refuse (FrameText::nul).
  bool nul() const { return nul_; }

  /// The frames named so far, and those without a symbol.
  const FrameResolver& resolver() const { return frames_; }

 private:
  FrameKey KeyOf(const Thread* t, uint8_t cpumode, uint64_t ip) {
    return FrameResolver::KeyOf(threads_->FindMap(t, cpumode, ip), ip);
  }
  void HoldFrame(const Thread* t, uint8_t cpumode, uint64_t ip);
  void HoldNamed(FrameText* f);
  void HoldChain(const Thread* t, const std::vector<uint64_t>& chain);
  void HoldUnwound(const Thread& t, const PerfAttr& a, const PerfSample& s);
  void NoteUnwindStop(const Thread& t, const UnwindResult& r);

  SymbolResolver* symbols_;
  ThreadMaps* threads_;
  PerfDataStats* stats_;
  FrameResolver frames_;
  std::unique_ptr<SampleUnwinder> unwinder_;  // when the arch is known
  HeldSamples* held_ = nullptr;  // Hold's
  bool nul_ = false;             // nul()
  std::vector<FrameKey> chain_keys_;  // HoldChain's frames
  // ... and which are the kernel's (bytes, not vector<bool>: one is written
  // and read per frame, and a bit's arithmetic costs more than a byte's store
  // and load)
  std::vector<uint8_t> chain_kernel_;
  std::vector<uint64_t> ips_;  // HoldUnwound's frames
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SAMPLE_FRAMES_H_
