// The flamesvg command line: flamegraph.pl's options and ours, validated
// into a FlameSvgConfig; its help. The run is flamegraph/flamesvg.h.
#ifndef FLAMEFOLD_CLI_FLAMESVG_CLI_H_
#define FLAMEFOLD_CLI_FLAMESVG_CLI_H_

#include <string>

#include "flamegraph/flamesvg.h"

namespace flamefold {

enum class SvgArgsResult { kRun, kHelp, kVersion, kUsageError };

/// Parses flamesvg's command line (Getopt::Long rules). kUsageError sets
/// `*err`.
SvgArgsResult ParseFlameSvgArgs(int argc, char** argv, FlameSvgConfig* config,
                                std::string* err);

/// The text of `flamesvg --help`.
std::string FlameSvgHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMESVG_CLI_H_
