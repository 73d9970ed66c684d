// ByteSource: the first stage of every pipeline, a stream of bytes.
#ifndef FLAMEFOLD_IO_BYTE_SOURCE_H_
#define FLAMEFOLD_IO_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace flamefold {

class FileWindows;

/// A forward-only stream of bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `cap` bytes into `buf`. Sets `*got` to the number read, 0 at
  /// the end of the stream. Returns false with `*err` set on an I/O or
  /// decoding error (the message does not name the file: callers add it).
  virtual bool Read(char* buf, size_t cap, size_t* got, std::string* err) = 0;

  /// True when Lend() may be used instead of Read(): the source holds its
  /// bytes in memory (a mapped file, a buffer) and can show them in place,
  /// which saves a copy per byte. Once Lend() is called, Read() is not.
  virtual bool CanLend() { return false; }
  /// Sets `*view` to the next bytes where they lie, valid until the next
  /// call; empty at the end of the stream. Only when CanLend().
  virtual bool Lend(std::string_view* view, std::string* err);
};

/// Reads a file descriptor (a file, a pipe, stdin). Does not own the fd
/// unless `owned`. A regular file is lent in mapped windows (FileWindows)
/// from its current offset.
class FdSource : public ByteSource {
 public:
  FdSource(int fd, bool owned);
  ~FdSource() override;
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;
  bool CanLend() override;
  bool Lend(std::string_view* view, std::string* err) override;

 private:
  int fd_;
  bool owned_;
  std::unique_ptr<FileWindows> windows_;  // set by CanLend for a file
  bool lend_checked_ = false;
};

/// In-memory source, for tests. `chunk` limits each Read or Lend, so tests
/// can feed input in awkward pieces; it lends only when `lend` is set, so
/// tests choose which of a reader's two ways they take.
class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string data, size_t chunk = SIZE_MAX,
                        bool lend = false)
      : data_(std::move(data)), chunk_(chunk), lend_(lend) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;
  bool CanLend() override { return lend_; }
  bool Lend(std::string_view* view, std::string* err) override;

 private:
  std::string data_;
  size_t pos_ = 0;
  size_t chunk_;
  bool lend_;
};

/// Reads bytes owned by someone else, which must outlive the source.
class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string_view data) : data_(data) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;
  bool CanLend() override { return true; }
  bool Lend(std::string_view* view, std::string* err) override;

 private:
  std::string_view data_;
};

/// Puts bytes already read (a peeked prefix) back in front of a source.
class PrefixedSource : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}
  bool Read(char* buf, size_t cap, size_t* got, std::string* err) override;
  bool CanLend() override { return rest_->CanLend(); }
  bool Lend(std::string_view* view, std::string* err) override;

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
