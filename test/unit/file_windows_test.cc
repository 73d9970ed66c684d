// FileWindows: a regular file shown window by window from its current
// offset, read on when it grows, ended when it shrinks between windows, and
// a clean error (not a crash) when it shrinks under a window being read.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <string_view>

#include "io/byte_source.h"
#include "io/file_windows.h"
#include "io/line_reader.h"

using namespace flamefold;

namespace {

// An unlinked temporary file holding `bytes`, at offset 0.
int TempFd(const std::string& bytes) {
  char path[] = "/tmp/file_windows_testXXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  unlink(path);
  REQUIRE(write(fd, bytes.data(), bytes.size()) ==
          static_cast<ssize_t>(bytes.size()));
  lseek(fd, 0, SEEK_SET);
  return fd;
}

std::string Text(size_t n) {
  std::string s;
  for (size_t i = 0; s.size() < n; ++i) s += "line " + std::to_string(i) + "\n";
  s.resize(n);
  return s;
}

}  // namespace

TEST_CASE("file windows show a file from its offset, one window at a time") {
  const std::string text = Text(50000);
  int fd = TempFd(text);
  lseek(fd, 1234, SEEK_SET);  // not a page boundary
  auto windows = FileWindows::Open(fd, 8192);
  REQUIRE(windows != nullptr);
  std::string got, err;
  std::string_view view;
  size_t count = 0;
  while (windows->Next(&view, &err) && !view.empty()) {
    CHECK(view.size() <= 8192);
    got.append(view);
    ++count;
  }
  CHECK(err.empty());
  CHECK(got == text.substr(1234));
  CHECK(count == (text.size() - 1234 + 8191) / 8192);
  close(fd);
}

TEST_CASE("file windows read on when the file grows, and stop when it shrinks") {
  int fd = TempFd(Text(10000));
  auto windows = FileWindows::Open(fd, 4096);
  REQUIRE(windows != nullptr);
  std::string err, got;
  std::string_view view;
  while (windows->Next(&view, &err) && !view.empty()) got.append(view);
  CHECK(got.size() == 10000);
  const std::string more = "appended\n";
  REQUIRE(pwrite(fd, more.data(), more.size(), 10000) == 9);
  REQUIRE(windows->Next(&view, &err));
  CHECK(view == more);
  REQUIRE(windows->Next(&view, &err));
  CHECK(view.empty());
  close(fd);

  int fd2 = TempFd(Text(20000));
  auto cut = FileWindows::Open(fd2, 4096);
  REQUIRE(cut->Next(&view, &err));
  REQUIRE(ftruncate(fd2, 4096) == 0);
  REQUIRE(cut->Next(&view, &err));
  CHECK(view.empty());  // as read() would: the end is where the file ends
  close(fd2);
}

TEST_CASE("file windows are not used for pipes or empty files") {
  int p[2];
  REQUIRE(pipe(p) == 0);
  CHECK(FileWindows::Open(p[0]) == nullptr);
  FdSource pipe_source(p[0], true);
  CHECK_FALSE(pipe_source.CanLend());
  close(p[1]);
  int empty = TempFd("");
  CHECK(FileWindows::Open(empty) == nullptr);
  close(empty);
}

TEST_CASE("a file read through FdSource gives its lines lent, whole") {
  // 3 windows of 4 MiB and more: lines run across the windows' ends.
  const std::string text = Text(3 * FileWindows::kWindowBytes + 12345);
  int fd = TempFd(text);
  FdSource src(fd, true);
  REQUIRE(src.CanLend());
  LineReader reader(&src);
  std::string_view line;
  std::string got;
  while (reader.Next(&line) == LineReader::kLine) {
    got.append(line);
    if (!reader.last_line_unterminated()) got += '\n';
  }
  CHECK(got == text);
  CHECK(reader.bytes_read() == text.size());
}

TEST_CASE("a file that shrinks under its window ends the process with an error") {
  // A mapped page past the file's new end faults (SIGBUS); the handler
  // names the problem and exits 1 instead of dumping core.
  int err_pipe[2];
  REQUIRE(pipe(err_pipe) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    dup2(err_pipe[1], STDERR_FILENO);
    int fd = TempFd(Text(100000));
    auto windows = FileWindows::Open(fd, 65536);
    std::string_view view;
    std::string err;
    if (!windows || !windows->Next(&view, &err)) _exit(3);
    if (ftruncate(fd, 0) != 0) _exit(4);
    volatile char c = view[view.size() - 1];  // faults
    (void)c;
    _exit(0);
  }
  close(err_pipe[1]);
  std::string message;
  char buf[256];
  ssize_t n;
  while ((n = read(err_pipe[0], buf, sizeof buf)) > 0) message.append(buf, n);
  close(err_pipe[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(message.find(": error: an input file got shorter while it was being read") !=
        std::string::npos);
}
