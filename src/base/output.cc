#include "base/output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace flamefold {

FdSink::~FdSink() { Flush(); }

bool FdSink::WriteAll(std::string_view s, std::string* why, bool* pipe) const {
  while (!s.empty()) {
    ssize_t n = write(fd_, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      *why = std::strerror(errno);
      *pipe = errno == EPIPE;
      return false;
    }
    s.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// A write too large for the buffer goes out at once, after what the thread
// holds.
void FdSink::WriteRaw(std::string_view s) {
  Drain();
  if (failed()) return;
  std::string why;
  bool pipe = false;
  if (!WriteAll(s, &why, &pipe)) Fail(why, pipe);
}

void FdSink::WriteBuffer(std::string* buf) {
  if (!writer_.joinable() && ++buffers_written_ <= kSyncBuffers) {
    WriteRaw(*buf);
    buf->clear();
    return;
  }
  if (!writer_.joinable()) {
    // Two buffers queued and one being written: the caller waits only when
    // the descriptor is slower than it is.
    full_ = std::make_unique<BoundedQueue<std::string>>(2);
    empty_ = std::make_unique<BoundedQueue<std::string>>(4);
    writer_ = std::thread(&FdSink::WriterLoop, this);
  }
  std::string next;
  if (std::optional<std::string> reused = empty_->TryPop()) {
    next = std::move(*reused);
  } else {
    next.reserve(buf->capacity());
  }
  full_->Push(buf);
  *buf = std::move(next);
  buf->clear();
}

void FdSink::WriterLoop() {
  while (std::optional<std::string> buf = full_->Pop()) {
    if (!writer_failed_) {
      writer_failed_ = !WriteAll(*buf, &writer_error_, &writer_pipe_);
    }
    buf->clear();
    empty_->TryPush(&*buf);  // when the caller has enough, it is freed
  }
}

void FdSink::Drain() {
  if (!writer_.joinable()) return;
  full_->Close();
  writer_.join();
  full_.reset();
  empty_.reset();
  if (writer_failed_) Fail(writer_error_, writer_pipe_);
  writer_failed_ = writer_pipe_ = false;
}

void AppendUint(std::string* out, unsigned long long v) {
  char tmp[24];
  char* p = tmp + sizeof(tmp);  // digits from the last one, then one append
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  out->append(p, static_cast<size_t>(tmp + sizeof(tmp) - p));
}

int WriteOutput(const Diag& diag, const std::string& path,
                const std::function<int(OutputSink*)>& body) {
  bool to_stdout = path.empty() || path == "-";
  int fd = 1;
  if (!to_stdout) {
    fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
      diag.Error(path + ": " + std::strerror(errno));
      return kExitDataError;
    }
  }
  int status;
  {
    FdSink sink(fd);
    status = body(&sink);
    if (!sink.Flush() && !sink.broken_pipe() && status == kExitOk) {
      diag.Error((to_stdout ? std::string() : path + ": ") + "write error: " +
                 sink.error());
      status = kExitDataError;
    }
  }
  if (!to_stdout && close(fd) != 0 && status == kExitOk) {
    diag.Error(path + ": " + std::strerror(errno));
    status = kExitDataError;
  }
  return status;
}

std::optional<int> FlushFailed(OutputSink* out, const Diag& diag) {
  if (out->Flush()) return std::nullopt;
  if (out->broken_pipe()) return kExitOk;
  diag.Error("write error: " + out->error());
  return kExitDataError;
}

}  // namespace flamefold
