// RecordingFolder: how FoldInputs folds a recording (perf.data) without
// depending on the stage that reads recordings: that stage implements it
// (PerfDataFolder) and the tools hand it to FoldInputs. It folds into a
// RecordingFold, the run's fold: by samples, or by text where the Perl
// script's reading is one of lines.
#ifndef FLAMEFOLD_COLLAPSE_RECORDING_FOLDER_H_
#define FLAMEFOLD_COLLAPSE_RECORDING_FOLDER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "collapse/input_kind.h"
#include "collapse/perf_script_options.h"
#include "collapse/recorded_sample.h"

namespace flamefold {

/// What a recording is folded into, its state (the event filter, a sample
/// in progress) carried over from the inputs before it as for any other
/// input.
class RecordingFold {
 public:
  virtual ~RecordingFold() = default;
  virtual const PerfScriptOptions& options() const = 0;
  /// Whether the recording is read as the text perf script prints for it
  /// (ReadText): with --srcline (a frame without a source line takes the
  /// next line) and --inline (a frame's result depends on its address and
  /// offset), the Perl script's reading is one of lines.
  bool WantsText() const { return options().srcline || options().inliner; }
  /// Where the recording's samples go, unless WantsText.
  virtual RecordedSampleSink* samples() = 0;
  /// The next part of the recording's text, in whole lines. False with
  /// `*err` on text that cannot be read (binary data).
  virtual bool ReadText(std::string_view text, std::string* err) = 0;
};

class RecordingFolder {
 public:
  virtual ~RecordingFolder() = default;

  /// Folds the recording `in`, opened from `file`, into `into`. What the
  /// recording lost is the implementation's to say. False with `*err`
  /// (naming the file) when it cannot be read.
  virtual bool Fold(const std::string& file, Input* in, RecordingFold* into,
                    std::string* err) = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_RECORDING_FOLDER_H_
