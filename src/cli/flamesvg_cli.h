// The flamesvg command line: flamegraph.pl's options and ours, validated
// into a FlameSvgConfig; its help. The run is flamegraph/flamesvg.h.
#ifndef FLAMEFOLD_CLI_FLAMESVG_CLI_H_
#define FLAMEFOLD_CLI_FLAMESVG_CLI_H_

#include <string>

#include "base/options.h"
#include "cli/tool_args.h"
#include "flamegraph/flamesvg.h"

namespace flamefold {

/// flamegraph.pl's options and ours, but --config and --no-config (for
/// flamebatch, which passes them on).
OptionTable FlameSvgOptions();

/// Sets `config` from `opts` (of FlameSvgOptions()), with flamegraph.pl's
/// checks. False with `*err` on a value it refuses.
bool FillFlameSvgConfig(const ParsedOptions& opts, FlameSvgConfig* config,
                        std::string* err);

/// Parses flamesvg's command line and configuration file. kUsageError sets
/// `*err`.
ArgsResult ParseFlameSvgArgs(int argc, char** argv, FlameSvgConfig* config,
                             std::string* err);

/// The text of `flamesvg --help`.
std::string FlameSvgHelp();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMESVG_CLI_H_
