#include "cli/tool_main.h"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>

namespace flamefold {

int WriteOutput(const Diag& diag, const std::string& path,
                const std::function<int(OutputSink*)>& body) {
  bool to_stdout = path.empty() || path == "-";
  int fd = 1;
  if (!to_stdout) {
    fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
      diag.Error(path + ": " + std::strerror(errno));
      return kExitDataError;
    }
  }
  int status;
  {
    FdSink sink(fd);
    status = body(&sink);
    if (!sink.Flush() && !sink.broken_pipe() && status == kExitOk) {
      diag.Error((to_stdout ? std::string() : path + ": ") + "write error: " +
                 sink.error());
      status = kExitDataError;
    }
  }
  if (!to_stdout && close(fd) != 0 && status == kExitOk) {
    diag.Error(path + ": " + std::strerror(errno));
    status = kExitDataError;
  }
  return status;
}

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
