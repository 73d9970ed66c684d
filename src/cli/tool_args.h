// A tool's settings: its command line (base/options.h).
#ifndef FLAMEFOLD_CLI_TOOL_ARGS_H_
#define FLAMEFOLD_CLI_TOOL_ARGS_H_

#include <string>
#include <string_view>

#include "base/options.h"

namespace flamefold {

enum class ArgsResult { kRun, kHelp, kVersion, kUsageError };

/// Reads a tool's command line with `syntax`: kHelp or kVersion when it
/// asks for --help or --version. kUsageError sets `*err`.
ArgsResult ParseToolArgs(std::string_view tool, const OptionTable& table,
                         Syntax syntax, int argc, char** argv,
                         ParsedOptions* out, std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_TOOL_ARGS_H_
