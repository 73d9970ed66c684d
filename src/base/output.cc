#include "base/output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace flamefold {

void FdSink::WriteRaw(std::string_view s) {
  while (!s.empty()) {
    ssize_t n = write(fd_, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail(std::strerror(errno), errno == EPIPE);
      return;
    }
    s.remove_prefix(static_cast<size_t>(n));
  }
}

void AppendUint(std::string* out, unsigned long long v) {
  char tmp[24];
  char* p = tmp + sizeof(tmp);  // digits from the last one, then one append
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  out->append(p, static_cast<size_t>(tmp + sizeof(tmp) - p));
}

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

}  // namespace flamefold
