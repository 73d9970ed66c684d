// OutputSink: buffered output to a file descriptor or a string.
#ifndef FLAMEFOLD_BASE_OUTPUT_H_
#define FLAMEFOLD_BASE_OUTPUT_H_

#include <functional>
#include <string>
#include <string_view>

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
  /// Writes what is buffered. Returns false after any write error.
  bool Flush() {
    FlushBuffer();
    return !failed_;
  }
  bool failed() const { return failed_; }
  /// True when the reader went away (EPIPE): tools then exit quietly.
  bool broken_pipe() const { return broken_pipe_; }
  const std::string& error() const { return error_; }

 protected:
  virtual void WriteRaw(std::string_view s) = 0;
  void Fail(std::string why, bool pipe) {
    if (!failed_) error_ = std::move(why);
    failed_ = true;
    broken_pipe_ = broken_pipe_ || pipe;
  }

 private:
  void FlushBuffer() {
    if (!buf_.empty() && !failed_) WriteRaw(buf_);
    buf_.clear();
  }
  static constexpr size_t kFlushAt = 256 * 1024;
  std::string buf_;
  bool failed_ = false;
  bool broken_pipe_ = false;
  std::string error_;
};

class FdSink : public OutputSink {
 public:
  explicit FdSink(int fd) : fd_(fd) {}
  ~FdSink() override { Flush(); }

 protected:
  void WriteRaw(std::string_view s) override;

 private:
  int fd_;
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

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_OUTPUT_H_
