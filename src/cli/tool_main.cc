#include "cli/tool_main.h"

#include <csignal>
#include <exception>
#include <new>

namespace flamefold {

int RunTool(const Diag& diag, const std::string& path,
            const std::function<int(OutputSink*)>& body) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return WriteOutput(diag, path, body);
  } catch (const std::bad_alloc&) {
    diag.Error("out of memory");
    return kExitDataError;
  } catch (const std::exception& e) {
    diag.Error(e.what());
    return kExitDataError;
  }
}

}  // namespace flamefold
