// A tool's settings: its command line (base/options.h), then its section
// of the configuration file (base/config_file.h) under it.
#ifndef FLAMEFOLD_CLI_TOOL_ARGS_H_
#define FLAMEFOLD_CLI_TOOL_ARGS_H_

#include <span>
#include <string>
#include <string_view>

#include "base/config_file.h"
#include "base/options.h"

namespace flamefold {

enum class ArgsResult { kRun, kHelp, kVersion, kUsageError };

/// --config FILE and --no-config, which every tool takes.
po::options_description ConfigFileOptions();

/// -o FILE, -q, -h and -V, as flamereport and flamescope take them.
po::options_description OutputAndHelpOptions();

/// Reads a tool's command line with `syntax`; unless it asks for --help or
/// --version, stores the settings of `tool`'s section of the configuration
/// file under it (LoadToolConfig). kUsageError sets `*err`.
ArgsResult ParseToolArgs(std::string_view tool, const OptionTable& table,
                         Syntax syntax, int argc, char** argv,
                         ParsedOptions* out, std::string* err);

/// The section of `tool` in the configuration file that the command line
/// `opts` names: --config FILE (which must exist), none with --no-config,
/// else DefaultConfigPath() if there is a file there. False with `*err` on
/// a file that cannot be read or a bad line.
bool LoadToolConfig(std::string_view tool, const ParsedOptions& opts,
                    ConfigSection* out, std::string* err);

/// The options that a configuration file cannot set.
std::span<const std::string_view> CommandLineOnlyOptions();

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_TOOL_ARGS_H_
