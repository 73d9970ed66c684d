// ByteSource and its kinds: every byte arrives once and in order whatever
// the read sizes; a prefix put back comes first; ReadFully stops at the
// end; a file descriptor reads to its end and reports errors.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "io/byte_source.h"

using namespace flamefold;

namespace {

// Everything `src` yields, read `cap` bytes at a time, or "ERROR: ...".
std::string ReadAll(ByteSource* src, size_t cap) {
  std::string all, err;
  std::string buf(cap, '\0');
  for (;;) {
    size_t got = 0;
    if (!src->Read(buf.data(), cap, &got, &err)) return "ERROR: " + err;
    if (got == 0) return all;
    REQUIRE(got <= cap);
    all.append(buf.data(), got);
  }
}

}  // namespace

TEST_CASE("StringSource and MemorySource yield every byte in any read size") {
  const std::string text = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (size_t cap : {1u, 3u, 7u, 64u}) {
    StringSource chunked(text, 5);
    CHECK(ReadAll(&chunked, cap) == text);
    MemorySource memory(text);
    CHECK(ReadAll(&memory, cap) == text);
  }
  StringSource empty("");
  CHECK(ReadAll(&empty, 4).empty());
}

TEST_CASE("PrefixedSource puts the peeked bytes back in front") {
  PrefixedSource src("head:", std::make_unique<StringSource>("rest of it", 3));
  CHECK(ReadAll(&src, 2) == "head:rest of it");
  PrefixedSource no_prefix("", std::make_unique<StringSource>("x"));
  CHECK(ReadAll(&no_prefix, 8) == "x");
}

TEST_CASE("ReadFully reads up to the wanted size across short reads") {
  StringSource src("0123456789", 3);
  std::string out, err;
  REQUIRE(ReadFully(&src, 8, &out, &err));
  CHECK(out == "01234567");
  StringSource shorter("abc", 1);
  std::string rest;
  REQUIRE(ReadFully(&shorter, 10, &rest, &err));
  CHECK(rest == "abc");  // the stream ended first: not an error
}

TEST_CASE("FdSource reads a file to its end and reports a bad descriptor") {
  const std::string text(100000, 'p');
  char path[] = "/tmp/byte_source_testXXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, text.data(), text.size()) ==
          static_cast<ssize_t>(text.size()));
  lseek(fd, 0, SEEK_SET);
  unlink(path);
  {
    FdSource src(fd, /*owned=*/true);
    CHECK(ReadAll(&src, 4096) == text);
  }
  CHECK(fcntl(fd, F_GETFD) == -1);  // owned: closed with the source
  FdSource bad(-1, false);
  CHECK(ReadAll(&bad, 16).rfind("ERROR: ", 0) == 0);
}
