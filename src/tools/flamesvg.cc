// flamesvg: folded stacks -> interactive flame graph SVG (flamegraph.pl).
#include <cstdio>

#include "cli/flamesvg_cli.h"
#include "cli/tool_main.h"
#include "flamefold_config.h"

int main(int argc, char** argv) {
  using namespace flamefold;
  Diag diag("flamesvg");
  FlameSvgConfig config;
  std::string err;
  switch (ParseFlameSvgArgs(argc, argv, &config, &err)) {
    case ArgsResult::kHelp:
      std::fputs(FlameSvgHelp().c_str(), stdout);
      return kExitOk;
    case ArgsResult::kVersion:
      std::printf("flamesvg %s\n", FLAMEFOLD_VERSION);
      return kExitOk;
    case ArgsResult::kUsageError:
      diag.Error(err);
      std::fputs("Try 'flamesvg --help' for more information.\n", stderr);
      return kExitUsage;
    case ArgsResult::kRun:
      break;
  }
  diag.set_quiet(config.quiet);
  return RunTool(diag, config.output, [&](OutputSink* out) {
    return RunFlameSvg(config, out, diag);
  });
}
