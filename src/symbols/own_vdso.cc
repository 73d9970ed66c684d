#include "symbols/own_vdso.h"

#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace flamefold {

namespace {

// The value of the hex digits at the front of `s`, consumed; false when
// there are none.
bool TakeHex(std::string_view* s, uint64_t* v) {
  size_t i = 0;
  uint64_t x = 0;
  for (; i < s->size() && i < 16; ++i) {
    char c = (*s)[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                   : -1;
    if (d < 0) break;
    x = x << 4 | static_cast<uint64_t>(d);
  }
  if (i == 0) return false;
  s->remove_prefix(i);
  *v = x;
  return true;
}

std::string MakeOwnVdsoFile() {
  uint64_t base = getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return "";
  std::ifstream in("/proc/self/maps");
  std::stringstream text;
  text << in.rdbuf();
  uint64_t start = 0, end = 0;
  if (!FindMapping(text.str(), "[vdso]", &start, &end) || start != base) {
    return "";
  }
  int fd = memfd_create("flamefold-vdso", MFD_CLOEXEC);
  if (fd < 0) return "";
  const char* p = reinterpret_cast<const char*>(start);
  size_t left = end - start;
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n <= 0) {
      close(fd);
      return "";
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return "/proc/self/fd/" + std::to_string(fd);  // open until exit
}

}  // namespace

bool FindMapping(std::string_view maps, std::string_view name,
                 uint64_t* start, uint64_t* end) {
  while (!maps.empty()) {
    size_t eol = maps.find('\n');
    std::string_view line = maps.substr(0, eol);
    maps.remove_prefix(eol == std::string_view::npos ? maps.size() : eol + 1);
    // The name is the last field, after the inode and its padding.
    size_t cut = line.find_last_of(' ');
    if (cut == std::string_view::npos || line.substr(cut + 1) != name) continue;
    uint64_t a = 0, b = 0;
    if (!TakeHex(&line, &a) || line.empty() || line[0] != '-') continue;
    line.remove_prefix(1);
    if (!TakeHex(&line, &b) || b <= a) continue;
    *start = a;
    *end = b;
    return true;
  }
  return false;
}

const std::string& OwnVdsoFile() {
  static const std::string file = MakeOwnVdsoFile();
  return file;
}

}  // namespace flamefold
