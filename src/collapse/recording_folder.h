// RecordingFolder: how FoldInputs folds a recording (perf.data) without
// depending on the stage that reads recordings: that stage implements it
// (PerfDataFolder) and the tools hand it to FoldInputs.
#ifndef FLAMEFOLD_COLLAPSE_RECORDING_FOLDER_H_
#define FLAMEFOLD_COLLAPSE_RECORDING_FOLDER_H_

#include <cstdint>
#include <string>

#include "collapse/input_kind.h"
#include "collapse/perf_script.h"

namespace flamefold {

class RecordingFolder {
 public:
  virtual ~RecordingFolder() = default;

  /// Folds the recording `in`, opened from `file` as the `index`-th input
  /// of the run, through `parser`: its samples are read as the perf script
  /// text of the recording would be, and the parser's state (the event
  /// filter, a sample in progress) carries over as for any other input.
  /// What the recording lost is the implementation's to say. False with
  /// `*err` (naming the file) when it cannot be read.
  virtual bool Fold(const std::string& file, uint64_t index, Input* in,
                    PerfScriptParser* parser, std::string* err) = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_RECORDING_FOLDER_H_
