#include "base/output.h"

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

}  // namespace flamefold
