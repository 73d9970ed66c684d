// The flamefold command: options, validation and the run, kept in the
// library so that tests drive it without a process.
#ifndef FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
#define FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/diag.h"
#include "base/options.h"
#include "base/output.h"
#include "collapse/fold_config.h"

namespace flamefold {

/// The options that say how perf script text and perf.data are folded
/// (stackcollapse-perf.pl's, then --modern, --symfs, --kallsyms): every
/// tool that folds takes them, so that its stacks are flamefold's.
std::span<const OptionSpec> FoldOptionSpecs();

/// Sets in `config` what `opts` holds of FoldOptionSpecs().
void ApplyFoldOptions(const ParsedOptions& opts, FoldConfig* config);

enum class ArgsResult { kRun, kHelp, kVersion, kUsageError };

/// Parses flamefold's command line. kUsageError sets `*err`.
ArgsResult ParseFoldArgs(int argc, char** argv, FoldConfig* config,
                         std::string* err);

/// The text of `flamefold --help`.
std::string FoldHelp();

/// flamefold's whole option table (FoldOptionSpecs() and its own), for
/// tools that take flamefold's options and hand them to ParseFoldArgs
/// (flamebatch).
std::span<const OptionSpec> FlamefoldOptionSpecs();

/// Folds every input into `out`. Returns the exit status; messages go
/// through `diag`.
int RunFold(const FoldConfig& config, OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
