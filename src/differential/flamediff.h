// The flamediff engine: the stacks of two profiles paired as
// difffolded.pl pairs them, or (--report) the functions whose share
// changed most; --threshold turns regressions into exit status 3. Its
// command line is cli/flamediff_cli.h.
#ifndef FLAMEFOLD_DIFFERENTIAL_FLAMEDIFF_H_
#define FLAMEFOLD_DIFFERENTIAL_FLAMEDIFF_H_

#include <string>

#include "base/diag.h"
#include "base/output.h"
#include "collapse/fold_config.h"

namespace flamefold {

struct DiffConfig {
  bool normalize = false;   // -n: scale column 1 to column 2's total
  bool strip_hex = false;   // -s: 0x1a2b -> 0x...
  bool report = false;      // --report: changed functions instead of lines
  bool has_threshold = false;
  double threshold = 0;     // --threshold P: exit 3 when a share grew > P
  size_t top = 20;          // --top N: rows of the report (0: all)
  bool quiet = false;       // -q: no warnings
  // How the inputs are read: the limits (fold.perf.limits, fold.max_line)
  // apply to every side; perf script and perf.data sides are folded with
  // flamefold's options and --jobs.
  FoldConfig fold;
  std::string before, after;
};

/// Reads both inputs and writes the diff (or the report). Returns the exit
/// status: 0, 1 (data or I/O error) or 3 (--threshold exceeded).
int RunDiff(const DiffConfig& config, OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_DIFFERENTIAL_FLAMEDIFF_H_
