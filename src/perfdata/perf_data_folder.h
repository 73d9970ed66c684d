// PerfDataFolder: FoldInputs' RecordingFolder for perf.data. Each recording
// is replayed into the fold (replay.h, FoldPerfData) with the symbols of its
// `perf archive` when there is one (perf_archive.h); what it lost is
// warned of, and what it holds (events, host, lost samples...) kept for
// flamereport.
#ifndef FLAMEFOLD_PERFDATA_PERF_DATA_FOLDER_H_
#define FLAMEFOLD_PERFDATA_PERF_DATA_FOLDER_H_

#include <string>
#include <utility>
#include <vector>

#include "base/diag.h"
#include "collapse/recording_folder.h"
#include "io/byte_source.h"
#include "perfdata/recording_stats.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

/// Folds the perf.data in `src` into `into` (its state, such as the event
/// filter, carries over as for any other input): by its samples' fields,
/// or, where the fold reads --srcline or --inline, as the text perf script
/// prints (-F+srcline: with the source lines), which `into` reads.
bool FoldPerfData(const std::string& name, ByteSource* src,
                  const SymbolOptions& options, RecordingFold* into,
                  PerfDataStats* stats, std::string* err);

class PerfDataFolder : public RecordingFolder {
 public:
  /// Symbols are looked up as `symbols` says; `archive` is --archive ("":
  /// FILE.tar.bz2 beside FILE when there is one). With `print_stats` each
  /// recording's facts go to stderr as flamefold's --stats lines. Warnings
  /// go through `diag`, under the running tool's name.
  PerfDataFolder(const SymbolOptions& symbols, std::string archive,
                 bool print_stats, const Diag& diag);

  bool Fold(const std::string& file, Input* in, RecordingFold* into,
            std::string* err) override;

  /// The recordings folded, in order, each with what its replay found.
  const std::vector<std::pair<std::string, PerfDataStats>>& recordings()
      const {
    return recordings_;
  }

 private:
  void PrintStats(const std::string& file, const PerfDataStats& stats) const;

  SymbolOptions symbols_;
  std::string archive_;
  bool print_stats_;
  const Diag& diag_;
  std::vector<std::pair<std::string, PerfDataStats>> recordings_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_PERF_DATA_FOLDER_H_
