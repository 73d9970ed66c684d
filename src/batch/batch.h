// flamebatch: a folder of archived profiles -> folded + SVG (+ report) each,
// converted in parallel, with progress on stderr.
//
// An input never loses a byte: each output is named after the whole input
// file name (x.txt.gz -> x.txt.gz.folded, x.txt.gz.svg), so no two inputs of
// one folder share an output; the outputs written are listed in
// OUTDIR/.flamebatch-outputs, so that they are never taken for inputs, and a
// file not listed there is never replaced.
#ifndef FLAMEFOLD_BATCH_BATCH_H_
#define FLAMEFOLD_BATCH_BATCH_H_

#include <string>
#include <vector>

#include "base/diag.h"
#include "flamegraph/flamesvg.h"
#include "collapse/fold_config.h"

namespace flamefold {

struct BatchConfig {
  std::string outdir = ".";      // -o OUTDIR
  int jobs = 1;                  // --jobs N; ParseBatchArgs sets the cores
  bool folded = true;            // --folded / --svg pick outputs; neither
  bool svg = true;               //   given: both
  bool report = false;           // --report: NAME.report.txt as well
  bool force = false;            // --force: convert even when up to date
  bool quiet = false;            // -q: no warnings, no progress
  FoldConfig fold;               // flamefold's options, for the folding
  FlameSvgConfig svg_config;     // every flamesvg option, for the SVGs
  std::vector<std::string> paths;  // files and folders (recursive)
};

/// The name of the list of outputs flamebatch keeps in OUTDIR.
inline constexpr const char* kOutputListName = ".flamebatch-outputs";

/// Converts every input; returns the exit status (1 when any input failed
/// or was refused, as its outputs would replace a file).
int RunBatch(const BatchConfig& config, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_BATCH_BATCH_H_
