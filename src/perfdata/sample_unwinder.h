// SampleUnwinder: perf's DWARF post-unwind of --call-graph dwarf samples:
// the user frames from each sample's registers and stack copy, one
// DwarfUnwinder per address space, reading each DSO's binary found as the
// symbols were.
#ifndef FLAMEFOLD_PERFDATA_SAMPLE_UNWINDER_H_
#define FLAMEFOLD_PERFDATA_SAMPLE_UNWINDER_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "perfdata/dwarf_unwind.h"
#include "perfdata/perf_data.h"
#include "perfdata/thread_maps.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

class SampleUnwinder {
 public:
  /// Registers are read as `arch` lays them out; DSOs' files are found
  /// through `symbols`, which must outlive this.
  SampleUnwinder(SymbolResolver* symbols, const RegisterMap* arch);
  ~SampleUnwinder();

  /// Whether sample `s` of thread `t` carries what unwinding needs: user
  /// registers, a user stack copy, and an address space.
  static bool CanUnwind(const Thread& t, const PerfSample& s) {
    return !s.user_regs.empty() && !s.user_stack.empty() && t.maps;
  }

  /// Unwinds sample `s` (of event `a`, in thread `t`, CanUnwind) into the
  /// user frames' addresses `*ips`, at most `max_frames`, callee first.
  /// Without any object perf can open as ELF in the address space, as perf
  /// does, there are none (kNoObject at the sampled address).
  UnwindResult Unwind(const Thread& t, const PerfAttr& a, const PerfSample& s,
                      size_t max_frames, std::vector<uint64_t>* ips);

 private:
  class View;
  struct Slot {
    std::shared_ptr<Maps> keep;  // its address stays taken while the slot lives
    std::unique_ptr<View> view;
    std::unique_ptr<DwarfUnwinder> unwinder;
  };

  SymbolResolver* symbols_;
  const RegisterMap* arch_;
  UnwindFiles files_;
  std::unordered_map<const Maps*, Slot> slots_;  // by address space
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_SAMPLE_UNWINDER_H_
