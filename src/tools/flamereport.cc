// flamereport: a profile -> its hotspots, as text, CSV or JSON.
#include <cstdio>

#include "cli/flamereport_cli.h"
#include "cli/tool_main.h"
#include "flamefold_config.h"

int main(int argc, char** argv) {
  using namespace flamefold;
  Diag diag("flamereport");
  ReportConfig config;
  std::string err;
  switch (ParseReportArgs(argc, argv, &config, &err)) {
    case ArgsResult::kHelp:
      std::fputs(ReportHelp().c_str(), stdout);
      return kExitOk;
    case ArgsResult::kVersion:
      std::printf("flamereport %s\n", FLAMEFOLD_VERSION);
      return kExitOk;
    case ArgsResult::kUsageError:
      diag.Error(err);
      std::fputs("Try 'flamereport --help' for more information.\n", stderr);
      return kExitUsage;
    case ArgsResult::kRun:
      break;
  }
  diag.set_quiet(config.quiet);
  return RunTool(diag, config.output, [&](OutputSink* out) {
    return RunReport(config, out, diag);
  });
}
