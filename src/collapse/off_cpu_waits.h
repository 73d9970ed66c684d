// OffCpuWaits: --off-cpu's state for one input. A sched:sched_switch
// sample opens a wait of the thread it switches out (its prev_pid), on the
// sample's stack; the thread's next switch-in closes it (a sched_switch
// whose next_pid it is, a PERF_RECORD_SWITCH IN, any other sample of it),
// and the wait's nanoseconds go to that stack. Sums stay in ns per stack
// and are converted to the unit once, as the input ends: rounding each
// wait would drift by half a unit per wait.
#ifndef FLAMEFOLD_COLLAPSE_OFF_CPU_WAITS_H_
#define FLAMEFOLD_COLLAPSE_OFF_CPU_WAITS_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_interner.h"
#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"
#include "collapse/stack_trie.h"

namespace flamefold {

class OffCpuWaits {
 public:
  /// Counts go to `stats`, which must outlive this.
  OffCpuWaits(const OffCpuOptions& options, OffCpuStats* stats);

  /// A record at `time` (ns) was read: the input ends no earlier.
  void Saw(uint64_t time) {
    if (time > end_) end_ = time;
  }
  /// Thread `tid` ran at `time`: its open wait, if any, ends there.
  /// `switch_in`: a switch-in proper (counted when it finds no wait).
  void Ran(int32_t tid, uint64_t time, bool switch_in);
  /// Thread `tid` switches out at `time`. A wait of it still open ends
  /// there, counted (OffCpuStats::unseen_switch_ins): its switch-in was not
  /// in the input (no --switch-events, or perf script without
  /// --show-switch-events), so the wait holds the time the thread ran.
  void SwitchesOut(int32_t tid, uint64_t time);
  /// Whether the switch-out `s` begins a wait: not for the idle task, a
  /// dying thread or a state --off-cpu-state leaves out (each counted).
  bool Opens(const SchedSwitch& s);
  /// Opens the wait of `tid` from `time` on the stack `frames` (root
  /// first, as the fold assembles it).
  void Open(int32_t tid, uint64_t time, std::span<const SymbolId> frames);
  /// --on-off: a CPU sample of `ns` nanoseconds on the stack `frames`,
  /// summed with the waits' time per stack.
  void AddOnCpu(std::span<const SymbolId> frames, uint64_t ns);
  /// Ends the input: the waits still open are closed at its last record's
  /// time (Saw) and counted as cut; each stack's sum goes to `sink` in the
  /// unit, rounded to the nearest (none when that is 0). Then all is
  /// forgotten for the next input.
  void Finish(SampleSink* sink);

 private:
  struct OpenWait {
    uint64_t start;
    std::vector<SymbolId> frames;
  };
  bool Close(int32_t tid, uint64_t at);

  const OffCpuOptions& options_;
  OffCpuStats* stats_;
  uint64_t end_ = 0;
  // Ordered maps: the stacks go to the sink in one order whatever the
  // library's hashing, and the few threads and stacks of a recording's
  // waits make their look-ups cheap either way.
  std::map<int32_t, OpenWait> open_;
  std::map<std::vector<SymbolId>, uint64_t> ns_;  // by stack, root first
  std::vector<SymbolId> key_;  // AddOnCpu's scratch
};

/// The unit --off-cpu-unit names ("ns", "us", "ms") in ns; 0 for another.
uint64_t OffCpuUnitNs(std::string_view unit);
/// The unit of --off-cpu's counts in words ("microseconds"); "" without
/// --off-cpu.
std::string OffCpuUnitName(const OffCpuOptions& options);
/// The same as --off-cpu-unit spells it ("us"); "" without --off-cpu.
std::string OffCpuUnitAbbrev(const OffCpuOptions& options);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_OFF_CPU_WAITS_H_
