// flamefold: perf script output -> folded stacks (stackcollapse-perf.pl).
#include <cstdio>

#include "cli/flamefold_cli.h"
#include "cli/tool_main.h"
#include "collapse/flamefold.h"
#include "perfdata/perf_data_folder.h"
#include "flamefold_config.h"

int main(int argc, char** argv) {
  using namespace flamefold;
  Diag diag("flamefold");
  FoldConfig config;
  std::string err;
  switch (ParseFoldArgs(argc, argv, &config, &err)) {
    case ArgsResult::kHelp:
      std::fputs(FoldHelp().c_str(), stdout);
      return kExitOk;
    case ArgsResult::kVersion:
      std::printf("flamefold %s\n", FLAMEFOLD_VERSION);
      return kExitOk;
    case ArgsResult::kUsageError:
      diag.Error(err);
      std::fputs("Try 'flamefold --help' for more information.\n", stderr);
      return kExitUsage;
    case ArgsResult::kRun:
      break;
  }
  diag.set_quiet(config.quiet);
  return RunTool(diag, config.output, [&](OutputSink* out) {
    PerfDataFolder recordings(config.symbols, config.archive, config.stats,
                              diag);
    return RunFold(config, &recordings, out, diag);
  });
}
