// MemFile: bytes in an anonymous file (memfd), by a path that the readers
// which open files by name (libelf, LoadKallsyms) can open: for the fuzz
// targets of such readers.
#ifndef FLAMEFOLD_FUZZ_MEM_FILE_H_
#define FLAMEFOLD_FUZZ_MEM_FILE_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>

class MemFile {
 public:
  explicit MemFile(std::string_view bytes) {
    fd_ = memfd_create("fuzz", 0);
    if (fd_ < 0) abort();
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) abort();
      done += static_cast<size_t>(n);
    }
  }
  ~MemFile() { close(fd_); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

#endif  // FLAMEFOLD_FUZZ_MEM_FILE_H_
