// The flamediff command: difffolded.pl's options and output, plus
// --report and --threshold. Kept in the library so tests drive it without
// a process.
#ifndef FLAMEFOLD_DIFF_TOOL_H_
#define FLAMEFOLD_DIFF_TOOL_H_

#include <string>

#include "flamefold/diag.h"
#include "flamefold/output.h"
#include "flamefold/stack_limits.h"
#include "flamefold/symbol_resolver.h"

namespace flamefold {

struct DiffConfig {
  bool normalize = false;   // -n: scale column 1 to column 2's total
  bool strip_hex = false;   // -s: 0x1a2b -> 0x...
  bool report = false;      // --report: changed functions instead of lines
  bool has_threshold = false;
  double threshold = 0;     // --threshold P: exit 3 when a share grew > P
  size_t top = 20;          // --top N: rows of the report (0: all)
  SymbolOptions symbols;    // perf.data inputs: --symfs, --kallsyms
  StackLimits limits;       // --max-stack-depth, --max-frame-length
  std::string before, after;
};

enum class DiffArgs { kRun, kHelp, kVersion, kUsageError };

/// Parses the command line as difffolded.pl's Getopt::Std getopts('ns')
/// does: single letters, bundled ("-ns"), options before the two files,
/// "--" ends them. Our own options are long ("--report", "--threshold=P" or
/// "--threshold P", "--top N", "--symfs DIR", "--kallsyms FILE", "--help",
/// "--version"); -h is --help.
DiffArgs ParseDiffArgs(int argc, char** argv, DiffConfig* config,
                       std::string* err);

/// The text of `flamediff --help`.
std::string DiffHelp();

/// Reads both inputs and writes the diff (or the report). Returns the exit
/// status: 0, 1 (data or I/O error) or 3 (--threshold exceeded).
int RunDiff(const DiffConfig& config, OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_DIFF_TOOL_H_
