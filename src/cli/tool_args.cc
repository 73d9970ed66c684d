#include "cli/tool_args.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace flamefold {
namespace {

// The sections a configuration file may hold: one per tool that reads it.
constexpr std::string_view kTools[] = {"flamefold", "flamesvg", "flamediff",
                                       "flamereport", "flamebatch"};

// What means nothing in a configuration file.
constexpr std::string_view kCommandLineOnly[] = {"help", "version", "config",
                                                 "no-config"};

}  // namespace

po::options_description ConfigFileOptions() {
  po::options_description options;
  options.add_options()
      ("config", TextValue("FILE"),
       "read default options from FILE instead of "
       "~/.config/flamefold/config")
      ("no-config", SwitchValue(), "read no configuration file");
  return options;
}

po::options_description OutputAndHelpOptions() {
  po::options_description options;
  options.add_options()
      ("output,o", TextValue("FILE"),
       "write to FILE instead of standard output")
      ("quiet,q", SwitchValue(), "print no warnings")
      ("help,h", SwitchValue(), "print this help and exit")
      ("version,V", SwitchValue(), "print the version and exit");
  return options;
}

std::span<const std::string_view> CommandLineOnlyOptions() {
  return kCommandLineOnly;
}

bool LoadToolConfig(std::string_view tool, const ParsedOptions& opts,
                    ConfigSection* out, std::string* err) {
  const bool named = opts.Has("config");
  if (opts.Flag("no-config")) {
    if (!named) return true;
    *err = "--config and --no-config contradict each other";
    return false;
  }
  std::string path = named ? opts.Text("config") : DefaultConfigPath();
  std::error_code ec;
  if (path.empty() || (!named && !std::filesystem::exists(path, ec))) {
    return true;  // no file, no settings
  }
  if (std::filesystem::is_directory(path, ec)) {
    *err = "cannot read " + path + ": " + std::strerror(EISDIR);
    return false;
  }
  std::ifstream in(path);
  if (!in) {
    *err = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  return ReadConfigSection(in, path, tool, kTools, out, err);
}

ArgsResult ParseToolArgs(std::string_view tool, const OptionTable& table,
                         Syntax syntax, int argc, char** argv,
                         ParsedOptions* out, std::string* err) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (!ParseCommandLine(table, syntax, args, out, err)) {
    return ArgsResult::kUsageError;
  }
  if (out->Flag("help")) return ArgsResult::kHelp;
  if (out->Flag("version")) return ArgsResult::kVersion;
  ConfigSection section;
  if (!LoadToolConfig(tool, *out, &section, err) ||
      !StoreConfigSettings(section, table.all(), kCommandLineOnly, out,
                           nullptr, err)) {
    return ArgsResult::kUsageError;
  }
  return ArgsResult::kRun;
}

}  // namespace flamefold
