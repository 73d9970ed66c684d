// OutputSink: bytes come out in order whether written small or large, and a
// descriptor that fails turns into an error (EPIPE: a broken pipe) instead
// of lost output.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <fcntl.h>

#include <string>
#include <thread>

#include "base/output.h"

using namespace flamefold;

TEST_CASE("StringSink keeps order across small, large and flushed writes") {
  StringSink sink;
  std::string want;
  for (int i = 0; i < 50000; ++i) {
    std::string piece = std::to_string(i) + ";";
    sink.Write(piece);
    want += piece;
    if (i % 1000 == 0) {
      sink.Put('\n');
      want += '\n';
    }
  }
  const std::string big(600 * 1024, 'b');  // larger than the buffer
  sink.Write(big);
  want += big;
  sink.Write("end");
  want += "end";
  CHECK(sink.Flush());
  CHECK(sink.str() == want);
  CHECK_FALSE(sink.failed());
}

TEST_CASE("FdSink writes to its descriptor and reports a broken pipe") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  {
    FdSink sink(fds[1]);
    sink.Write("hello ");
    sink.Put('x');
    CHECK(sink.Flush());
  }
  char buf[16] = {};
  CHECK(read(fds[0], buf, sizeof buf) == 7);
  CHECK(std::string(buf) == "hello x");
  close(fds[0]);
  signal(SIGPIPE, SIG_IGN);
  FdSink sink(fds[1]);
  sink.Write("lost");
  CHECK_FALSE(sink.Flush());
  CHECK(sink.failed());
  CHECK(sink.broken_pipe());
  CHECK_FALSE(sink.error().empty());
  close(fds[1]);
}

// Past a few full buffers FdSink's own thread writes them: the bytes must
// still come out in order, interleaved with writes too large for the
// buffer (written at once, after the queued ones) and with flushes.
TEST_CASE("FdSink keeps order when its thread writes a large output") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::string got;
  std::thread reader([&] {
    char buf[65536];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) got.append(buf, n);
  });
  std::string want;
  {
    FdSink sink(fds[1]);
    for (int i = 0; i < 400000; ++i) {
      std::string piece = std::to_string(i) + (i % 7 == 0 ? "\n" : ";");
      sink.Write(piece);
      want += piece;
      if (i % 100000 == 99999) {
        const std::string big(700 * 1024, static_cast<char>('a' + i % 26));
        sink.Write(big);
        want += big;
      }
      if (i == 250000) {
        CHECK(sink.Flush());
      }
    }
    CHECK(sink.Flush());
    sink.Write("tail");  // after a flush the thread starts again
    want += "tail";
  }
  close(fds[1]);
  reader.join();
  close(fds[0]);
  CHECK(got.size() == want.size());
  CHECK(got == want);
}

TEST_CASE("FdSink reports an error its thread met") {
  int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  FdSink sink(fd);
  for (int i = 0; i < 200000; ++i) sink.Write("0123456789");  // 2 MB
  CHECK_FALSE(sink.Flush());
  CHECK(sink.failed());
  CHECK_FALSE(sink.broken_pipe());
  CHECK(sink.error() == "No space left on device");
  close(fd);

  int fds[2];
  REQUIRE(pipe(fds) == 0);
  close(fds[0]);
  signal(SIGPIPE, SIG_IGN);
  FdSink piped(fds[1]);
  for (int i = 0; i < 200000; ++i) piped.Write("0123456789");
  CHECK_FALSE(piped.Flush());
  CHECK(piped.broken_pipe());
  close(fds[1]);
}

TEST_CASE("AppendUint appends decimal digits") {
  std::string s = "n=";
  AppendUint(&s, 0);
  s += ',';
  AppendUint(&s, 18446744073709551615ull);
  CHECK(s == "n=0,18446744073709551615");
}
