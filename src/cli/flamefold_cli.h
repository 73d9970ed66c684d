// The flamefold command line: its options, their validation into a
// FoldConfig, its help; and the fold options every tool that folds shares.
// The run is collapse/flamefold.h.
#ifndef FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
#define FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_

#include <string>

#include "base/options.h"
#include "cli/tool_args.h"
#include "collapse/fold_config.h"

namespace flamefold {

/// Adds the options that say how perf script text and perf.data are folded
/// (stackcollapse-perf.pl's, then --modern, --symfs, --archive, --kallsyms,
/// --buildid-dir): every tool that folds takes them, so that its stacks are
/// flamefold's.
void AddFoldOptions(OptionTable* table);

/// Sets in `config` what `opts` holds of the fold options. False with
/// `*err` for a --time-range that does not parse.
bool ApplyFoldOptions(const ParsedOptions& opts, FoldConfig* config,
                      std::string* err);

/// --include and --exclude REGEX: which stacks are kept; and the stack
/// transforms (--focus, ...; collapse/stack_transform.h) (flamefold,
/// flamereport, flamebatch).
po::options_description FoldFilterOptions();

/// Sets config->include, config->exclude and config->transforms (in the
/// order given) from `opts`. False with `*err` when a regex does not
/// compile.
bool ParseFilterOptions(const ParsedOptions& opts, FoldConfig* config,
                        std::string* err);

/// flamefold's --max-line-length BYTES, which flamebatch passes on too.
po::options_description FoldLineLengthOption();

/// Sets config->max_line from it. False with `*err` when it is below 1.
bool ParseFoldLineLength(const ParsedOptions& opts, FoldConfig* config,
                         std::string* err);

/// --jobs N, taken by every tool that folds with FoldInputs; with -j but in
/// flamediff, whose letters are difffolded.pl's.
po::options_description JobsOption(bool with_letter);

/// Sets config->jobs from --jobs N (0: one thread per usable core) or,
/// without it, to one per usable core, at most 4. False with `*err` when N
/// is below 0.
bool ParseJobsOption(const ParsedOptions& opts, FoldConfig* config,
                     std::string* err);

/// Parses flamefold's command line and configuration file. kUsageError sets
/// `*err`.
ArgsResult ParseFoldArgs(int argc, char** argv, FoldConfig* config,
                         std::string* err);

/// The text of `flamefold --help`.
std::string FoldHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
