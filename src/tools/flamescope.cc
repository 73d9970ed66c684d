// flamescope: perf script output or perf.data -> a FlameScope page (a
// subsecond-offset heat map and the flame graph of a selected range).
#include <cstdio>

#include "cli/flamescope_cli.h"
#include "cli/tool_main.h"
#include "perfdata/perf_data_folder.h"
#include "flamefold_config.h"

int main(int argc, char** argv) {
  using namespace flamefold;
  Diag diag("flamescope");
  FlameScopeConfig config;
  std::string err;
  switch (ParseFlameScopeArgs(argc, argv, &config, &err)) {
    case ArgsResult::kHelp:
      std::fputs(FlameScopeHelp().c_str(), stdout);
      return kExitOk;
    case ArgsResult::kVersion:
      std::printf("flamescope %s\n", FLAMEFOLD_VERSION);
      return kExitOk;
    case ArgsResult::kUsageError:
      diag.Error(err);
      std::fputs("Try 'flamescope --help' for more information.\n", stderr);
      return kExitUsage;
    case ArgsResult::kRun:
      break;
  }
  diag.set_quiet(config.fold.quiet);
  return RunTool(diag, config.fold.output, [&](OutputSink* out) {
    PerfDataFolder recordings(config.fold.symbols, config.fold.archive,
                              config.fold.stats, diag);
    return RunFlameScope(config, &recordings, out, diag);
  });
}
