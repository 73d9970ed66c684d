// flamediff: two profiles -> "STACK BEFORE AFTER" lines (difffolded.pl).
#include <cstdio>

#include "cli/flamediff_cli.h"
#include "cli/tool_main.h"
#include "flamefold_config.h"

int main(int argc, char** argv) {
  using namespace flamefold;
  Diag diag("flamediff");
  DiffConfig config;
  std::string err;
  switch (ParseDiffArgs(argc, argv, &config, &err)) {
    case ArgsResult::kHelp:
      std::fputs(DiffHelp().c_str(), stdout);
      return kExitOk;
    case ArgsResult::kVersion:
      std::printf("flamediff %s\n", FLAMEFOLD_VERSION);
      return kExitOk;
    case ArgsResult::kUsageError:
      diag.Error(err);
      std::fputs("Usage: flamediff [-hns] [OPTIONS] BEFORE AFTER\n"
                 "Try 'flamediff --help' for more information.\n",
                 stderr);
      return kExitUsage;
    case ArgsResult::kRun:
      break;
  }
  diag.set_quiet(config.quiet);
  return RunTool(diag, "", [&](OutputSink* out) {
    return RunDiff(config, out, diag);
  });
}
