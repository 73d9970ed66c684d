// Diag and the message helpers: messages go to stderr as
// "<tool>: error: ...", "<tool>: warning: ..." and "<tool>: note: ...";
// -q silences notes and warnings but never errors; a context path goes in
// front once; Printable shows any bytes as readable text.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "base/diag.h"

using namespace flamefold;

namespace {

// What `emit` writes to stderr.
template <typename F>
std::string Stderr(F emit) {
  std::fflush(stderr);
  char path[] = "/tmp/diag_testXXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const int saved = dup(2);
  dup2(fd, 2);
  emit();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string out;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, n);
  close(fd);
  unlink(path);
  return out;
}

}  // namespace

TEST_CASE("Diag prefixes each message with the tool and its kind") {
  Diag diag("flametool");
  CHECK(diag.tool() == "flametool");
  CHECK(Stderr([&] { diag.Error("bad input"); }) ==
        "flametool: error: bad input\n");
  CHECK(Stderr([&] { diag.Warning("odd line"); }) ==
        "flametool: warning: odd line\n");
  CHECK(Stderr([&] { diag.Note("chose x"); }) == "flametool: note: chose x\n");
}

TEST_CASE("Diag -q silences warnings and notes, not errors") {
  Diag diag("t");
  diag.set_quiet(true);
  CHECK(diag.quiet());
  CHECK(Stderr([&] {
          diag.Warning("w");
          diag.Note("n");
          diag.Error("e");
        }) == "t: error: e\n");
}

TEST_CASE("Diag puts the context path in front once") {
  Diag diag("t");
  diag.set_context("in.folded");
  CHECK(Stderr([&] { diag.Warning("odd"); }) == "t: warning: in.folded: odd\n");
  CHECK(Stderr([&] { diag.Error("in.folded: bad"); }) ==
        "t: error: in.folded: bad\n");
}

TEST_CASE("Where names a file and line") {
  CHECK(Where("a.txt", 12) == "a.txt:12: ");
}

TEST_CASE("Printable escapes control and invalid bytes and cuts long text") {
  CHECK(Printable("plain caf\xC3\xA9") == "plain caf\xC3\xA9");
  CHECK(Printable("tab\there\x7f") == "tab\\x09here\\x7f");
  CHECK(Printable("bad\xff\xfe!") == "bad\\xff\\xfe!");
  CHECK(Printable("cut\xE2\x82!") == "cut\\xe2\\x82!");
  CHECK(Printable(std::string(200, 'a'), 10) == std::string(10, 'a') + "...");
  CHECK(Printable("short", 10) == "short");
}
