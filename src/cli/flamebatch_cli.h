// The flamebatch command line: its options, flamefold's and flamesvg's,
// validated into a BatchConfig; its help. The run is batch/batch.h.
#ifndef FLAMEFOLD_CLI_FLAMEBATCH_CLI_H_
#define FLAMEFOLD_CLI_FLAMEBATCH_CLI_H_

#include <string>

#include "batch/batch.h"
#include "cli/tool_args.h"

namespace flamefold {

/// Parses flamebatch's options and flamefold's (spelled in full), and hands
/// the rest to flamesvg's parser, whose operands are the paths. The
/// configuration file's [flamebatch] section holds the same options (but
/// --config and --no-config), each by its full name.
ArgsResult ParseBatchArgs(int argc, char** argv, BatchConfig* config,
                          std::string* err);

/// The text of `flamebatch --help`.
std::string BatchHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEBATCH_CLI_H_
