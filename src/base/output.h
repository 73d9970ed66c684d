// OutputSink: buffered output to a file descriptor or a string.
#ifndef FLAMEFOLD_BASE_OUTPUT_H_
#define FLAMEFOLD_BASE_OUTPUT_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "base/bounded_queue.h"
#include "base/diag.h"

namespace flamefold {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  void Write(std::string_view s) {
    if (buf_.size() + s.size() > kFlushAt) {
      FlushBuffer();
      if (s.size() > kFlushAt) {
        WriteRaw(s);
        return;
      }
    }
    buf_.append(s);
  }
  void Put(char c) {
    buf_.push_back(c);
    if (buf_.size() > kFlushAt) FlushBuffer();
  }
  /// Writes what is buffered and waits until it is written. Returns false
  /// after any write error.
  bool Flush() {
    FlushBuffer();
    Drain();
    return !failed_;
  }
  bool failed() const { return failed_; }
  /// True when the reader went away (EPIPE): tools then exit quietly.
  bool broken_pipe() const { return broken_pipe_; }
  const std::string& error() const { return error_; }

 protected:
  virtual void WriteRaw(std::string_view s) = 0;
  /// Writes the full buffer `*buf` and leaves it empty. A sink may take the
  /// bytes away to write later (giving back an empty buffer with room), as
  /// long as everything comes out in order and Drain waits for it.
  virtual void WriteBuffer(std::string* buf) {
    WriteRaw(*buf);
    buf->clear();
  }
  /// Waits until everything handed over is written (errors included).
  virtual void Drain() {}
  void Fail(std::string why, bool pipe) {
    if (!failed_) error_ = std::move(why);
    failed_ = true;
    broken_pipe_ = broken_pipe_ || pipe;
  }

 private:
  void FlushBuffer() {
    if (!buf_.empty() && !failed_) WriteBuffer(&buf_);
    buf_.clear();
  }
  static constexpr size_t kFlushAt = 256 * 1024;
  std::string buf_;
  bool failed_ = false;
  bool broken_pipe_ = false;
  std::string error_;
};

/// Writes to a file descriptor. Once the output has filled the buffer a few
/// times (a large output, such as a big profile's folded stacks), full
/// buffers are written by a thread of the sink's own while the caller fills
/// the next: a write(2) to a file costs the kernel's copy and its file system
/// work, and to a pipe it waits for the reader. Bytes come out in the order
/// written; Flush waits for them and reports the first error.
class FdSink : public OutputSink {
 public:
  explicit FdSink(int fd) : fd_(fd) {}
  ~FdSink() override;

 protected:
  void WriteRaw(std::string_view s) override;
  void WriteBuffer(std::string* buf) override;
  void Drain() override;

 private:
  /// Full buffers written by the thread before it goes: small outputs
  /// never start one.
  static constexpr int kSyncBuffers = 2;
  /// Writes all of `s`; false on an error, which is said in `*why` and
  /// `*pipe` (EPIPE).
  bool WriteAll(std::string_view s, std::string* why, bool* pipe) const;
  void WriterLoop();

  int fd_;
  int buffers_written_ = 0;
  // While the thread runs: the buffers it is to write, in order, and the
  // emptied ones it gives back for the caller to fill again.
  std::unique_ptr<BoundedQueue<std::string>> full_;
  std::unique_ptr<BoundedQueue<std::string>> empty_;
  std::thread writer_;
  // The thread's first error, read once it has been joined.
  std::string writer_error_;
  bool writer_failed_ = false, writer_pipe_ = false;
};

/// Collects output in memory, for tests.
class StringSink : public OutputSink {
 public:
  std::string& str() {
    Flush();
    return out_;
  }

 protected:
  void WriteRaw(std::string_view s) override { out_.append(s); }

 private:
  std::string out_;
};

/// Appends the decimal form of `v`.
void AppendUint(std::string* out, unsigned long long v);

/// Opens `path` for writing ("" or "-" is stdout), runs `body` with it,
/// flushes and closes it; write errors (other than a closed pipe) become
/// "PATH: write error: ..." and exit status 1.
int WriteOutput(const Diag& diag, const std::string& path,
                const std::function<int(OutputSink*)>& body);

/// Flushes `out` at the end of a tool's run. On failure returns the
/// tool's exit status: 0 when the reader went away (a closed pipe is no
/// error), else 1 after saying "write error: ..." through `diag`; on
/// success, nothing.
std::optional<int> FlushFailed(OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_OUTPUT_H_
