#include "symbols/own_vdso.h"

#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "base/hex.h"
#include "io/file_source.h"

namespace flamefold {

namespace {

// The hex number at the front of `s`, consumed; false when there is none.
bool TakeHex(std::string_view* s, uint64_t* v) {
  size_t n = ParseHex(*s, v);
  s->remove_prefix(n);
  return n > 0;
}

std::string MakeOwnVdsoFile() {
  uint64_t base = getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return "";
  std::string maps, err;
  if (!ReadFile("/proc/self/maps", &maps, &err)) return "";
  uint64_t start = 0, end = 0;
  if (!FindMapping(maps, "[vdso]", &start, &end) || start != base) {
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
