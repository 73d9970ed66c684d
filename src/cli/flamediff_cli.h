// The flamediff command: difffolded.pl's options and output, plus
// --report and --threshold. Kept in the library so tests drive it without
// a process.
#ifndef FLAMEFOLD_CLI_FLAMEDIFF_CLI_H_
#define FLAMEFOLD_CLI_FLAMEDIFF_CLI_H_

#include <string>

#include "base/diag.h"
#include "cli/flamefold_cli.h"
#include "base/output.h"
#include "collapse/stack_limits.h"

namespace flamefold {

struct DiffConfig {
  bool normalize = false;   // -n: scale column 1 to column 2's total
  bool strip_hex = false;   // -s: 0x1a2b -> 0x...
  bool report = false;      // --report: changed functions instead of lines
  bool has_threshold = false;
  double threshold = 0;     // --threshold P: exit 3 when a share grew > P
  size_t top = 20;          // --top N: rows of the report (0: all)
  bool quiet = false;       // -q: no warnings
  StackLimits limits;       // --max-stack-depth, --max-frame-length
  // How perf script and perf.data inputs are folded: flamefold's options,
  // with `limits`.
  FoldConfig fold;
  std::string before, after;
};

enum class DiffArgs { kRun, kHelp, kVersion, kUsageError };

/// Parses the command line as difffolded.pl's Getopt::Std getopts('ns')
/// does: single letters, bundled ("-ns"), "--" ends the options. Our own
/// options are long ("--report", "--threshold=P" or "--threshold P",
/// "--top N", flamefold's "--modern", "--symfs DIR", ...); -h is --help,
/// -V --version. Options may follow the files, as in every other tool.
DiffArgs ParseDiffArgs(int argc, char** argv, DiffConfig* config,
                       std::string* err);

/// The text of `flamediff --help`.
std::string DiffHelp();

/// Reads both inputs and writes the diff (or the report). Returns the exit
/// status: 0, 1 (data or I/O error) or 3 (--threshold exceeded).
int RunDiff(const DiffConfig& config, OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEDIFF_CLI_H_
