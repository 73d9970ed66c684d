// The flamescope engine: every input folded (FoldInputs) with each
// sample's time kept, then the heat map page (scope_page.h) or, with
// --per-second, the samples of each second as a table. Its command line is
// cli/flamescope_cli.h.
#ifndef FLAMEFOLD_FLAMEGRAPH_FLAMESCOPE_H_
#define FLAMEFOLD_FLAMEGRAPH_FLAMESCOPE_H_

#include <cstdint>

#include "base/diag.h"
#include "base/output.h"
#include "collapse/fold_config.h"
#include "collapse/recording_folder.h"
#include "flamegraph/scope_page.h"

namespace flamefold {

/// Validated flamescope options.
struct FlameScopeConfig {
  FoldConfig fold;        // how the inputs are folded; its output and quiet
  uint32_t rows = 50;     // --rows: cells a second
  bool per_second = false;  // --per-second: the table instead of the page
  ScopePageOptions page;  // --title and the command the page shows
};

/// Folds every input of `config` (recordings through `recordings`) and
/// writes the page or the table to `out`. Returns the exit status;
/// messages go through `diag`.
int RunFlameScope(const FlameScopeConfig& config, RecordingFolder* recordings,
                  OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_FLAMESCOPE_H_
