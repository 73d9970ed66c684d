#include "io/file_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace flamefold {
namespace {

// The current offset of `fd` if it is a regular file (which can be read
// again from there), else -1.
int64_t SeekableOffset(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  off_t offset = lseek(fd, 0, SEEK_CUR);
  return offset < 0 ? -1 : static_cast<int64_t>(offset);
}

// Lets a pipe hold 1 MiB instead of 64 KiB, so that the writer and this
// reader take turns 16 times less often (each turn is a wake-up and a
// context switch). Best effort: a pipe keeps its size if this fails.
void WidenPipe(int fd) {
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
    fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  }
}

int Fail(const std::string& path, int errnum, const char* why,
         std::string* err, int* error_number) {
  *err = path + ": " + (why != nullptr ? why : std::strerror(errnum));
  if (error_number != nullptr) *error_number = errnum;
  return -1;
}

}  // namespace

int OpenFileFd(const std::string& path, std::string* err, int* error_number,
               OpenFor what) {
  int flags = O_RDONLY | O_CLOEXEC;
  if (what == OpenFor::kRegularFile) flags |= O_NONBLOCK;
  int fd = open(path.c_str(), flags);
  if (fd < 0) return Fail(path, errno, nullptr, err, error_number);
  struct stat st;
  int errnum = 0;
  const char* refused = nullptr;
  if (fstat(fd, &st) != 0) {
    errnum = errno;
  } else if (S_ISDIR(st.st_mode)) {
    errnum = EISDIR;
    refused = "is a directory";
  } else if (what == OpenFor::kRegularFile && !S_ISREG(st.st_mode)) {
    errnum = EINVAL;
    refused = "not a regular file";
  } else {
    return fd;
  }
  close(fd);
  return Fail(path, errnum, refused, err, error_number);
}

bool OpenFileSource(const std::string& path,
                    std::unique_ptr<ByteSource>* source, std::string* err,
                    int64_t* stdin_offset) {
  if (stdin_offset != nullptr) *stdin_offset = -1;
  if (path != "-") {
    int fd = OpenFileFd(path, err);
    if (fd < 0) return false;
    *source = std::make_unique<FdSource>(fd, true);
    return true;
  }
  if (stdin_offset != nullptr) *stdin_offset = SeekableOffset(STDIN_FILENO);
  WidenPipe(STDIN_FILENO);
  *source = std::make_unique<FdSource>(STDIN_FILENO, false);
  return true;
}

bool ReadFile(const std::string& path, std::string* bytes, std::string* err,
              int* error_number) {
  bytes->clear();
  int fd = OpenFileFd(path, err, error_number);
  if (fd < 0) return false;
  FdSource source(fd, true);
  std::string piece;
  do {
    std::string why;
    if (!ReadFully(&source, 64 * 1024, &piece, &why)) {
      *err = path + ": " + why;
      return false;
    }
    bytes->append(piece);
  } while (!piece.empty());
  return true;
}

std::unique_ptr<MappedFile> MapSource(const ByteSource& source,
                                      size_t min_bytes,
                                      const std::string& name) {
  FilePosition at;
  if (!source.InFile(&at)) return nullptr;
  return MappedFile::Map(at.fd, at.offset, min_bytes, name);
}

}  // namespace flamefold
