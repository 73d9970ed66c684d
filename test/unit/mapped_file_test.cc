// MappedFile: a regular file's bytes in place, from an offset; pages given
// back read the same again; what the file gains after it is mapped is read
// on by MappedFileSource; a file that shrinks under the reader ends the
// process with a message and status 1, not a SIGBUS; and the sources say
// where in a file their next byte lies.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "io/byte_source.h"
#include "io/mapped_file.h"
#include "temp_file.h"

using flamefold::FdSource;
using flamefold::ForEachLineWindow;
using flamefold::FilePosition;
using flamefold::MappedFile;
using flamefold::MappedFileSource;
using flamefold::PrefixedSource;
using flamefold::testing::TempFile;

namespace {

std::string Bytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  return s;
}

std::string ReadAll(flamefold::ByteSource* src, size_t step) {
  std::string out, err;
  std::string buf(step, '\0');
  size_t got;
  while (src->Read(buf.data(), step, &got, &err) && got > 0) out.append(buf, 0, got);
  return out;
}

}  // namespace

TEST_CASE("MappedFile maps a file from an offset and reads it again after Release") {
  const std::string bytes = Bytes(3 << 20);
  TempFile f(bytes);
  int fd = open(f.path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  CHECK(MappedFile::Map(fd, 0, bytes.size() + 1, "f") == nullptr);  // too small
  for (int64_t offset : {0, 1, 4095, 4096, 123457}) {
    auto map = MappedFile::Map(fd, offset, 1 << 20, "f");
    REQUIRE(map != nullptr);
    CHECK(map->bytes() == std::string_view(bytes).substr(offset));
    CHECK(map->end_offset() == static_cast<int64_t>(bytes.size()));
    map->Prefetch(2 << 20);
    map->Release(1 << 20);  // given back, then read from the file again
    map->Release(100);      // behind what was given back: nothing to do
    CHECK(map->bytes() == std::string_view(bytes).substr(offset));
  }
  close(fd);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  CHECK(MappedFile::Map(fds[0], 0, 0, "pipe") == nullptr);  // not a file
  close(fds[0]);
  close(fds[1]);
}

TEST_CASE("MappedFileSource reads the mapping on, then what the file gained") {
  const std::string bytes = Bytes(1 << 20);
  TempFile f(bytes);
  int fd = open(f.path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  auto map = MappedFile::Map(fd, 10, 1000, "f");
  REQUIRE(map != nullptr);
  const std::string more = "appended after the mapping\n";
  int w = open(f.path.c_str(), O_WRONLY | O_APPEND);
  REQUIRE(w >= 0);
  REQUIRE(write(w, more.data(), more.size()) == static_cast<ssize_t>(more.size()));
  close(w);
  MappedFileSource rest(map.get(), 500);
  CHECK(ReadAll(&rest, 65536 + 3) == bytes.substr(510) + more);
  close(fd);
}

TEST_CASE("ForEachLineWindow gives whole lines; the rest is read after them") {
  std::string text;
  for (int i = 0; text.size() < (3u << 20); ++i) {
    text += "line " + std::to_string(i) + std::string(i % 300, 'x') + "\n";
  }
  const size_t long_at = text.size();
  text += std::string(200000, 'L') + "\n";  // longer than a window
  text += "after the long line\nlast, no newline";
  TempFile f(text);
  int fd = open(f.path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  auto map = MappedFile::Map(fd, 0, 1, "f");
  REQUIRE(map != nullptr);
  size_t pos = 0, calls = 0;
  std::string seen;
  ForEachLineWindow(map.get(), 65536, &pos, [&](std::string_view lines) {
    CHECK(lines.size() <= 65536);
    CHECK(lines.back() == '\n');
    seen += lines;
    ++calls;
    return true;
  });
  CHECK(calls > 40);
  CHECK(pos == seen.size());
  CHECK(pos <= long_at);          // stopped at the long line,
  CHECK(long_at - pos < 65536);   // not before
  MappedFileSource rest(map.get(), pos);
  CHECK(seen + ReadAll(&rest, 4096) == text);
  // A callback that says stop.
  size_t at = 0;
  calls = 0;
  ForEachLineWindow(map.get(), 65536, &at, [&](std::string_view) {
    return ++calls < 3;
  });
  CHECK(calls == 3);
  close(fd);
}

TEST_CASE("a file that shrinks while mapped ends the process with a message") {
  const std::string bytes = Bytes(2 << 20);
  TempFile f(bytes);
  int err_pipe[2];
  REQUIRE(pipe(err_pipe) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    dup2(err_pipe[1], 2);
    int fd = open(f.path.c_str(), O_RDONLY);
    auto map = MappedFile::Map(fd, 0, 1, "shrinking.txt");
    if (!map || truncate(f.path.c_str(), 4096) != 0) _exit(3);
    volatile char c = map->bytes()[1 << 20];  // past the new end
    (void)c;
    _exit(4);  // not reached
  }
  close(err_pipe[1]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  std::string said;
  char buf[256];
  ssize_t n;
  while ((n = read(err_pipe[0], buf, sizeof buf)) > 0) said.append(buf, n);
  close(err_pipe[0]);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(said.find(": error: shrinking.txt: the file shrank while it was read\n") !=
        std::string::npos);
}

TEST_CASE("FdSource and PrefixedSource say where their next byte lies in a file") {
  const std::string bytes = Bytes(10000);
  TempFile f(bytes);
  int fd = open(f.path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  auto raw = std::make_unique<FdSource>(fd, /*owned=*/true);
  char head[100];
  size_t got;
  std::string err;
  REQUIRE(raw->Read(head, sizeof head, &got, &err));
  REQUIRE(got == 100);
  FilePosition at;
  REQUIRE(raw->InFile(&at));
  CHECK(at.offset == 100);
  // The 100 bytes peeked put back: the next byte is the file's first.
  PrefixedSource peeked(std::string(head, 100), std::move(raw));
  REQUIRE(peeked.InFile(&at));
  CHECK(at.offset == 0);
  REQUIRE(peeked.Read(head, 30, &got, &err));
  REQUIRE(peeked.InFile(&at));
  CHECK(at.offset == 30);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  FdSource pipe_source(fds[0], /*owned=*/true);
  CHECK_FALSE(pipe_source.InFile(&at));
  close(fds[1]);
}
