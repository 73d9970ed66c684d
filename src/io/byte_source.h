// ByteSource: the first stage of every pipeline, a stream of bytes.
#ifndef FLAMEFOLD_IO_BYTE_SOURCE_H_
#define FLAMEFOLD_IO_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace flamefold {

/// Where a source's next byte lies in a regular file it reads as it is.
struct FilePosition {
  int fd = -1;
  int64_t offset = 0;
};

/// A forward-only stream of bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `cap` bytes into `buf`. Sets `*got` to the number read, 0 at
  /// the end of the stream. Returns false with `*err` set on an I/O or
  /// decoding error (the message does not name the file: callers add it).
  virtual bool Read(char* buf, size_t cap, size_t* got, std::string* err) = 0;
  /// For a source whose bytes are those of a regular file from some offset
  /// on (no decoding between): where the next byte Read would give lies in
  /// it, so that a caller may map the file instead of copying it; false for
  /// anything else (a pipe, a decoder, a buffer).
  virtual bool InFile(FilePosition*) const { return false; }
};

/// Reads a file descriptor (a file, a pipe, stdin). Does not own the fd
/// unless `owned`.
class FdSource : public ByteSource {
 public:
  FdSource(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~FdSource() override;
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;
  bool InFile(FilePosition* at) const override;

 private:
  int fd_;
  bool owned_;
};

/// In-memory source, for tests. `chunk` limits each Read, so tests can feed
/// input in awkward pieces.
class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string data, size_t chunk = SIZE_MAX)
      : data_(std::move(data)), chunk_(chunk) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;

 private:
  std::string data_;
  size_t pos_ = 0;
  size_t chunk_;
};

/// Reads bytes owned by someone else, which must outlive the source.
class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string_view data) : data_(data) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;

 private:
  std::string_view data_;
};

/// Puts bytes already read (a peeked prefix) back in front of a source.
class PrefixedSource : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;
  /// The prefix must be the bytes just before the rest's, as when it was
  /// read from the rest itself (a peek): what is left of it comes first.
  bool InFile(FilePosition* at) const override;

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

/// Reads until `want` bytes are in `*out` or the stream ends.
bool ReadFully(ByteSource* src, size_t want, std::string* out,
               std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_IO_BYTE_SOURCE_H_
