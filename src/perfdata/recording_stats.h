// PerfDataStats: what the replay of a perf.data found besides its samples:
// the recording's facts (host, perf, events, times, what the kernel lost),
// the frames without a symbol by DSO, the DWARF walks that ended early, and
// the warnings every tool that folds perf.data gives alike.
#ifndef FLAMEFOLD_PERFDATA_RECORDING_STATS_H_
#define FLAMEFOLD_PERFDATA_RECORDING_STATS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/diag.h"
#include "perfdata/dwarf_unwind.h"
#include "perfdata/ordered_records.h"
#include "perfdata/perf_data.h"

namespace flamefold {

struct PerfDataStats {
  uint64_t records = 0;
  uint64_t samples = 0;
  uint64_t samples_skipped = 0;  // guest mode
  uint64_t dwarf_chains = 0;     // --call-graph dwarf: not unwound
  std::string truncated;         // what a cut-short input lost
  // --call-graph dwarf: samples unwound, and those whose walk ended early
  // or went on by the frame-pointer guess, by (reason, DSO name).
  uint64_t unwound = 0, unwind_stopped = 0;
  std::map<std::pair<UnwindStop, std::string>, uint64_t> unwind_stops;
  std::vector<std::string> warnings;
  // From the feature sections, for --stats and flamereport.
  std::string hostname, perf_version, cmdline, os_release, arch;
  // The recording's own facts, for flamereport.
  struct Event {
    std::string name;
    bool freq = false;  // rate: samples a second (-F); else events a sample
    uint64_t rate = 0;
    uint64_t samples = 0;
  };
  std::vector<Event> events;  // perf's dummy (tracking-only) events left out
  uint64_t first_time = UINT64_MAX, last_time = 0;  // of the samples, in ns
  // What the kernel could not write (its buffer was full), as perf
  // record saw it: LOST_SAMPLES records count samples (perf 6.0 and
  // kernels 6.0 on write one at the end); LOST records count records of
  // any kind, in chunks.
  uint64_t lost_samples = 0;
  bool lost_samples_recorded = false;  // a LOST_SAMPLES record was read
  uint64_t lost_records = 0, lost_chunks = 0;
  uint64_t frames = 0;            // of every sample, as perf script prints
  uint64_t frames_no_symbol = 0;  // ... them: those shown as [unknown]
  /// The DSOs of those frames ("[unknown]": no mapping), most frames first.
  std::vector<std::pair<std::string, uint64_t>> no_symbol_dsos;
};

/// One line: how many unwound samples ended early, by reason, with the
/// DSOs and counts.
std::string UnwindStopSummary(const PerfDataStats& stats);

/// Warns, once each, about what folding the perf.data `file` lost or
/// lacked (symbols, --call-graph dwarf stacks, a cut-short file): every
/// tool that folds perf.data says the same, under its own name.
void WarnAboutPerfData(const std::string& file, const PerfDataStats& stats,
                       const Diag& diag);

/// The counts of the records read (FeedRecords').
void TakeRecordCounts(const RecordCounts& counts, PerfDataStats* stats);

/// The recording's facts from its feature sections: host, perf version,
/// OS release, arch and perf record's command line.
void TakeRecordingFacts(const PerfDataInfo& info, PerfDataStats* stats);

/// The recording's events `attrs` with `samples[i]` samples of attr i;
/// perf's dummy (tracking-only) event is left out when it has none.
void CountEvents(const std::vector<PerfAttr>& attrs,
                 const std::vector<uint64_t>& samples, PerfDataStats* stats);

/// The frames without a symbol, counted by DSO name in `by_dso`: their
/// total, and the DSOs most frames first (ties by name).
void CountNoSymbolFrames(const std::map<std::string, uint64_t>& by_dso,
                         PerfDataStats* stats);

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_RECORDING_STATS_H_
