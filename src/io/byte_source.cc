#include "io/byte_source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace flamefold {

FdSource::~FdSource() {
  if (owned_) close(fd_);
}

bool FdSource::Read(char* buf, size_t cap, size_t* got, std::string* err) {
  for (;;) {
    ssize_t n = read(fd_, buf, cap);
    if (n >= 0) {
      *got = static_cast<size_t>(n);
      return true;
    }
    if (errno == EINTR) continue;
    *err = std::strerror(errno);
    return false;
  }
}

bool FdSource::InFile(FilePosition* at) const {
  struct stat st;
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  off_t offset = lseek(fd_, 0, SEEK_CUR);
  if (offset < 0) return false;
  *at = {fd_, static_cast<int64_t>(offset)};
  return true;
}

bool StringSource::Read(char* buf, size_t cap, size_t* got, std::string*) {
  size_t n = std::min({cap, chunk_, data_.size() - pos_});
  std::memcpy(buf, data_.data() + pos_, n);
  pos_ += n;
  *got = n;
  return true;
}

bool MemorySource::Read(char* buf, size_t cap, size_t* got, std::string*) {
  size_t n = std::min(cap, data_.size());
  std::memcpy(buf, data_.data(), n);
  data_.remove_prefix(n);
  *got = n;
  return true;
}

bool PrefixedSource::Read(char* buf, size_t cap, size_t* got,
                          std::string* err) {
  if (pos_ < prefix_.size()) {
    size_t n = std::min(cap, prefix_.size() - pos_);
    std::memcpy(buf, prefix_.data() + pos_, n);
    pos_ += n;
    *got = n;
    return true;
  }
  return rest_->Read(buf, cap, got, err);
}

bool PrefixedSource::InFile(FilePosition* at) const {
  if (!rest_->InFile(at)) return false;
  const size_t left = prefix_.size() - pos_;
  if (static_cast<uint64_t>(at->offset) < left) return false;
  at->offset -= static_cast<int64_t>(left);
  return true;
}

bool ReadFully(ByteSource* src, size_t want, std::string* out,
               std::string* err) {
  out->clear();
  out->resize(want);
  size_t have = 0;
  while (have < want) {
    size_t got = 0;
    if (!src->Read(out->data() + have, want - have, &got, err)) return false;
    if (got == 0) break;
    have += got;
  }
  out->resize(have);
  return true;
}

}  // namespace flamefold
