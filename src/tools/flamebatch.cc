// flamebatch: archived profiles -> folded stacks and SVGs, in parallel.
#include <cstdio>

#include "cli/flamebatch_cli.h"
#include "flamefold_config.h"

int main(int argc, char** argv) {
  using namespace flamefold;
  Diag diag("flamebatch");
  BatchConfig config;
  std::string err;
  switch (ParseBatchArgs(argc, argv, &config, &err)) {
    case ArgsResult::kHelp:
      std::fputs(BatchHelp().c_str(), stdout);
      return kExitOk;
    case ArgsResult::kVersion:
      std::printf("flamebatch %s\n", FLAMEFOLD_VERSION);
      return kExitOk;
    case ArgsResult::kUsageError:
      diag.Error(err);
      std::fputs("Try 'flamebatch --help' for more information.\n", stderr);
      return kExitUsage;
    case ArgsResult::kRun:
      break;
  }
  diag.set_quiet(config.quiet);
  try {
    return RunBatch(config, diag);
  } catch (const std::exception& e) {
    diag.Error(e.what());
    return kExitDataError;
  }
}
