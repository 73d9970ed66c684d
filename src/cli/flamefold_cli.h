// The flamefold command line: its options, their validation into a
// FoldConfig, its help; and the fold options every tool that folds shares.
// The run is collapse/flamefold.h.
#ifndef FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
#define FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_

#include <span>
#include <string>

#include "base/diag.h"
#include "base/options.h"
#include "collapse/fold_config.h"

namespace flamefold {

/// The options that say how perf script text and perf.data are folded
/// (stackcollapse-perf.pl's, then --modern, --symfs, --kallsyms): every
/// tool that folds takes them, so that its stacks are flamefold's.
std::span<const OptionSpec> FoldOptionSpecs();

/// Sets in `config` what `opts` holds of FoldOptionSpecs().
void ApplyFoldOptions(const ParsedOptions& opts, FoldConfig* config);

/// --include and --exclude REGEX: which stacks are kept (flamefold,
/// flamereport).
std::span<const OptionSpec> FoldFilterOptionSpecs();

/// Sets config->include and config->exclude from `opts`. False with `*err`
/// when a regex does not compile.
bool ParseFilterOptions(const ParsedOptions& opts, FoldConfig* config,
                        std::string* err);

/// --jobs N, taken by every tool that folds with FoldInputs (flamediff
/// spells it without -j, its letters being difffolded.pl's).
inline constexpr OptionSpec kJobsOption = {
    "jobs|j", OptType::kInt, false, false, "N",
    "parse with N threads (0: one per usable core; default: one per usable core, at most 4)"};

/// Sets config->jobs from --jobs N (0: one thread per usable core) or,
/// without it, to one per usable core, at most 4. False with `*err` when N
/// is not a number, 0 or more.
bool ParseJobsOption(const ParsedOptions& opts, FoldConfig* config,
                     std::string* err);

enum class ArgsResult { kRun, kHelp, kVersion, kUsageError };

/// Parses flamefold's command line. kUsageError sets `*err`.
ArgsResult ParseFoldArgs(int argc, char** argv, FoldConfig* config,
                         std::string* err);

/// The text of `flamefold --help`.
std::string FoldHelp();

/// flamefold's whole option table (FoldOptionSpecs(),
/// FoldFilterOptionSpecs() and its own), for
/// tools that take flamefold's options and hand them to ParseFoldArgs
/// (flamebatch).
std::span<const OptionSpec> FlamefoldOptionSpecs();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
