// MappedFile: a regular file's bytes read in place (mmap), not copied.
//
// Reading perf script text with read(2) costs the kernel's copy of every byte
// into the caller's buffers, on the one thread that reads. Mapped, the page
// cache's pages are read where they are, by the threads that parse them. The
// pages already read are given back as the reading goes on (Release), so that
// the memory a fold holds stays that of the text in flight, not of the file.
//
// A mapped file that another process truncates while it is read would kill
// the reader with SIGBUS at the first page past the new end; instead, while
// any file is mapped, a handler says which file shrank and exits with
// status 1:
//   flamefold: error: big.txt: the file shrank while it was read
#ifndef FLAMEFOLD_IO_MAPPED_FILE_H_
#define FLAMEFOLD_IO_MAPPED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace flamefold {

class MappedFile {
 public:
  /// Maps bytes [offset, size) of the regular file `fd` (its size now), or
  /// returns nullptr when it cannot (not a regular file, fewer than
  /// `min_bytes` bytes there, mmap refused, too many files mapped at once):
  /// the caller then reads the file. `name` is the file's name in the
  /// message said when it shrinks.
  static std::unique_ptr<MappedFile> Map(int fd, int64_t offset,
                                         size_t min_bytes,
                                         const std::string& name);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// The bytes from the offset given to Map to the end the file had then.
  std::string_view bytes() const { return {data_, size_}; }
  /// The file's offset of bytes()[size()]: where reading it on goes on, for
  /// what was added to the file since it was mapped.
  int64_t end_offset() const { return end_offset_; }
  /// The descriptor given to Map (which must stay open while this lives).
  int fd() const { return fd_; }
  /// Asks the kernel to map bytes()[0, `end`) ahead of their reading, in
  /// one call rather than a page fault per 64 KiB (best effort).
  void Prefetch(size_t end);
  /// Gives back the pages that lie wholly in bytes()[0, `end`): they will
  /// not be read again (if they are, they are read from the file again).
  void Release(size_t end);

 private:
  MappedFile() = default;

  int fd_ = -1;             // not owned
  char* map_ = nullptr;     // the mapping, from a page boundary
  size_t map_size_ = 0;
  char* data_ = nullptr;    // the offset given to Map
  size_t size_ = 0;
  int64_t end_offset_ = 0;
  size_t prefetched_ = 0;   // of the mapping, from map_
  size_t released_ = 0;     // of the mapping, from map_
  int guard_slot_ = -1;
  std::string shrank_message_;  // the SIGBUS handler reads its bytes
};

/// Calls `lines` with the mapped bytes from `*pos` on, in pieces of whole
/// lines (each ends with '\n') of at most `window` bytes, asking for the
/// pages ahead and giving back those behind, until `window` bytes or fewer
/// are left, a line is longer than `window`, or `lines` returns false.
/// `*pos` ends where the rest begins: what a MappedFileSource from there
/// reads, through a LineReader, under the same line-length limit.
void ForEachLineWindow(MappedFile* map, size_t window, size_t* pos,
                       const std::function<bool(std::string_view)>& lines);

/// Reads a mapped file's bytes on from bytes()[`from`], and then what the
/// file gained since it was mapped, with pread from its descriptor rather
/// than through the mapping: a rest of the input read as a stream (the
/// last piece, or a hostile one with no line or sample boundary for
/// megabytes) then costs the memory of reading it, not of mapping it, even
/// under a sanitizer that shadows every mapped page read. The descriptor's
/// offset is left alone.
class MappedFileSource : public ByteSource {
 public:
  MappedFileSource(const MappedFile* file, size_t from)
      : fd_(file->fd()),
        offset_(file->end_offset() -
                static_cast<int64_t>(file->bytes().size() - from)) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;

 private:
  int fd_;
  int64_t offset_;  // of the next byte, in the file
};

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_MAPPED_FILE_H_
