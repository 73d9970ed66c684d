#include "perfdata/sample_frames.h"

#include "perfdata/perf_abi.h"

namespace flamefold {
namespace abi = perf_abi;
namespace {

constexpr size_t kMaxStack = 127;  // perf script's default --max-stack

// Whether the event's samples carry user registers and stack: recorded
// with --call-graph dwarf.
bool IsDwarf(const PerfAttr& a) {
  return (a.sample_type & abi::kSampleRegsUser) &&
         (a.sample_type & abi::kSampleStackUser);
}

}  // namespace

SampleFrames::SampleFrames(SymbolResolver* symbols, ThreadMaps* threads,
                           FrameResolver::Style style, PerfDataStats* stats)
    : symbols_(symbols), threads_(threads), stats_(stats),
      frames_(symbols, style) {}

void SampleFrames::SetArch(const RegisterMap* arch) {
  if (arch) unwinder_ = std::make_unique<SampleUnwinder>(symbols_, arch);
}

void SampleFrames::Hold(const Thread* t, const PerfAttr& a,
                        const PerfSample& s, uint8_t cpumode,
                        HeldSamples* held) {
  held_ = held;
  nul_ = false;
  bool dwarf = IsDwarf(a);
  if (dwarf && !unwinder_) stats_->dwarf_chains++;
  if (a.sample_type & abi::kSampleCallchain) {
    HoldChain(t, s.callchain);
    if (dwarf && unwinder_) HoldUnwound(*t, a, s);
  } else {
    HoldFrame(t, cpumode, s.ip);
  }
}

// The frame at `ip` in `cpumode` (a kernel one in the kernel maps).
void SampleFrames::HoldFrame(const Thread* t, uint8_t cpumode, uint64_t ip) {
  HoldNamed(frames_.Frame(KeyOf(t, cpumode, ip)));
}

// A frame named now.
void SampleFrames::HoldNamed(FrameText* f) {
  held_->AddNamed(f);
  if (frames_.any_nul()) nul_ |= f->nul;
}

// perf script's callee-first walk of the call chain. A guest or corrupt
// context within the frames perf shows makes perf drop them all: the
// frames are held only once the walk has found none.
// The user frames are located first and their cache slots fetched
// together: the look-ups then wait for memory once, not once a frame.
void SampleFrames::HoldChain(const Thread* t,
                             const std::vector<uint64_t>& chain) {
  uint8_t cpumode = abi::kMiscUser;
  chain_keys_.clear();
  chain_kernel_.clear();
  for (size_t i = 0, n = 0; i < chain.size() && n < kMaxStack; ++i) {
    uint64_t ip = chain[i];
    if (ip >= abi::kContextMax) {
      if (ip == abi::kContextHv) {
        cpumode = abi::kMiscHypervisor;
      } else if (ip == abi::kContextKernel) {
        cpumode = abi::kMiscKernel;
      } else if (ip == abi::kContextUser) {
        cpumode = abi::kMiscUser;
      } else {
        return;  // dropped
      }
      continue;
    }
    ++n;
    // A kernel frame is kept as its address (map nullptr, shown ip).
    bool kernel = cpumode == abi::kMiscKernel;
    chain_keys_.push_back(kernel ? FrameKey{nullptr, ip, ip, ip}
                                 : KeyOf(t, cpumode, ip));
    chain_kernel_.push_back(kernel);
    if (!kernel) frames_.Prefetch(chain_keys_.back());
  }
  for (size_t i = 0; i < chain_keys_.size(); ++i) {
    HoldNamed(frames_.Frame(chain_kernel_[i]
                                ? KeyOf(nullptr, abi::kMiscKernel,
                                        chain_keys_[i].ip)
                                : chain_keys_[i]));
  }
}

// perf's DWARF post-unwind: the user frames from the sample's registers
// and stack copy, after the kernel part of the chain, each with the
// frames inlined there.
void SampleFrames::HoldUnwound(const Thread& t, const PerfAttr& a,
                               const PerfSample& s) {
  if (!SampleUnwinder::CanUnwind(t, s)) return;
  stats_->unwound++;
  UnwindResult r = unwinder_->Unwind(t, a, s, kMaxStack, &ips_);
  if (r.stop != UnwindStop::kNone) NoteUnwindStop(t, r);
  for (uint64_t ip : ips_) {
    if (ip == 0) continue;
    FrameKey k = KeyOf(&t, abi::kMiscUser, ip);
    if (k.dso) {
      UnwoundText* u = frames_.Unwound(k);
      held_->AddUnwound(u);
      if (frames_.any_nul()) nul_ |= u->nul;
    } else {
      HoldNamed(frames_.Frame(k));
    }
  }
}

// Counts a walk that ended early, or went on by guess, by reason and by
// the DSO of the frame where it happened.
void SampleFrames::NoteUnwindStop(const Thread& t, const UnwindResult& r) {
  const Map* map = threads_->FindMap(&t, abi::kMiscUser, r.where);
  std::string dso = map && map->dso ? map->dso->name : "[unknown]";
  stats_->unwind_stops[{r.stop, dso}]++;
  stats_->unwind_stopped++;
}

}  // namespace flamefold
