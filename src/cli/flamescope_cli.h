// The flamescope command line: its own options and flamefold's fold
// options, validated into a FlameScopeConfig; its help. The run is
// flamegraph/flamescope.h.
#ifndef FLAMEFOLD_CLI_FLAMESCOPE_CLI_H_
#define FLAMEFOLD_CLI_FLAMESCOPE_CLI_H_

#include <string>

#include "cli/tool_args.h"
#include "flamegraph/flamescope.h"

namespace flamefold {

/// Parses flamescope's command line and configuration file. kUsageError
/// sets `*err`.
ArgsResult ParseFlameScopeArgs(int argc, char** argv,
                               FlameScopeConfig* config, std::string* err);

/// The text of `flamescope --help`.
std::string FlameScopeHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMESCOPE_CLI_H_
