#include "cli/tool_args.h"

namespace flamefold {

ArgsResult ParseToolArgs(std::string_view, const OptionTable& table,
                         Syntax syntax, int argc, char** argv,
                         ParsedOptions* out, std::string* err) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (!ParseCommandLine(table, syntax, args, out, err)) {
    return ArgsResult::kUsageError;
  }
  if (out->Flag("help")) return ArgsResult::kHelp;
  if (out->Flag("version")) return ArgsResult::kVersion;
  return ArgsResult::kRun;
}

}  // namespace flamefold
