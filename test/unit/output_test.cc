// OutputSink: bytes come out in order whether written small or large, and a
// descriptor that fails turns into an error (EPIPE: a broken pipe) instead
// of lost output.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <string>

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

TEST_CASE("AppendUint appends decimal digits") {
  std::string s = "n=";
  AppendUint(&s, 0);
  s += ',';
  AppendUint(&s, 18446744073709551615ull);
  CHECK(s == "n=0,18446744073709551615");
}
