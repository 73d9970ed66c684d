// A configuration file: default options for each tool, read with
// Boost.ProgramOptions' INI parser (parse_config_file's), one section a
// tool:
//
//   # flamefold tools' settings
//   [flamesvg]
//   colors = java
//   width = 1600
//   [flamefold]
//   modern = true
//   exclude = ^swapper       # repeatable options may repeat
//
// A key is an option's long name, a value its text (a flag's: true, false,
// yes, no, 1 or 0); "#" starts a comment anywhere on a line. Each tool
// reads only its own section; the command line wins (a repeatable option
// given there replaces the file's values). Errors name the file and line.
#ifndef FLAMEFOLD_BASE_CONFIG_FILE_H_
#define FLAMEFOLD_BASE_CONFIG_FILE_H_

#include <istream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/options.h"

namespace flamefold {

/// One "key = value" line of a tool's section.
struct ConfigSetting {
  int line = 0;
  std::string key;
  std::string value;
};

/// What a configuration file says to one tool.
struct ConfigSection {
  std::string path;  // the file, for messages
  std::string tool;  // whose section it is
  std::vector<ConfigSetting> settings;  // in the file's order
};

/// Where the configuration file is unless one is named:
/// $XDG_CONFIG_HOME/flamefold/config, else $HOME/.config/flamefold/config;
/// "" when neither variable is set.
std::string DefaultConfigPath();

/// Reads the settings of [tool] from `in`, the file `path`. False with
/// `*err` ("PATH:LINE: ...") on a line that is neither "key = value", a
/// [section] nor a comment, a key outside any section, or a section that
/// names none of `tools` (another tool's section is left to that tool).
bool ReadConfigSection(std::istream& in, const std::string& path,
                       std::string_view tool,
                       std::span<const std::string_view> tools,
                       ConfigSection* out, std::string* err);

/// Stores the settings of `section` that name an option of `options` into
/// *out, under what is there already (the command line's values win), and
/// appends the others to `*unknown` (when null, they are errors). False
/// with `*err` ("PATH:LINE: ...") on a value the option refuses or an
/// option of `command_line_only`.
bool StoreConfigSettings(const ConfigSection& section,
                         const po::options_description& options,
                         std::span<const std::string_view> command_line_only,
                         ParsedOptions* out,
                         std::vector<ConfigSetting>* unknown,
                         std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_CONFIG_FILE_H_
