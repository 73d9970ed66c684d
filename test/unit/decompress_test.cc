// The gzip and zstd decoders as ByteSources: they give back the original
// bytes in any read size, read concatenated members and frames as one
// stream, and fail on a stream cut short or followed by garbage.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "io/byte_source.h"
#include "io/decompress.h"
#include "test_inputs.h"

using namespace flamefold;
using flamefold::testing::Gzip;
using flamefold::testing::Zstd;

namespace {

// Everything `src` decodes, read 5 bytes at a time, or "ERROR: message".
std::string Drain(std::unique_ptr<ByteSource> src) {
  std::string all, err;
  char buf[5];
  for (;;) {
    size_t got = 0;
    if (!src->Read(buf, sizeof buf, &got, &err)) return "ERROR: " + err;
    if (got == 0) return all;
    all.append(buf, got);
  }
}

std::string Gunzip(const std::string& raw, size_t chunk = 7) {
  return Drain(NewGzipSource(std::make_unique<StringSource>(raw, chunk)));
}
std::string Unzstd(const std::string& raw, size_t chunk = 7) {
  return Drain(NewZstdSource(std::make_unique<StringSource>(raw, chunk)));
}

std::string Text() {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "main;f" + std::to_string(i % 97) + " 1\n";
  return text;
}

}  // namespace

TEST_CASE("gzip and zstd decode to the original bytes") {
  const std::string text = Text();
  CHECK(Gunzip(Gzip(text)) == text);
  CHECK(Gunzip(Gzip(text), 1) == text);
  CHECK(Unzstd(Zstd(text)) == text);
  CHECK(Unzstd(Zstd(text), 1 << 16) == text);
  CHECK(Gunzip(Gzip("")).empty());
}

TEST_CASE("concatenated gzip members and zstd frames are one stream") {
  CHECK(Gunzip(Gzip("a;b 1\n") + Gzip("c 2\n")) == "a;b 1\nc 2\n");
  CHECK(Unzstd(Zstd("a;b 1\n") + Zstd("c 2\n")) == "a;b 1\nc 2\n");
  // A skippable zstd frame (magic 0x184D2A50, 4-byte length) is skipped.
  const std::string skippable("\x50\x2A\x4D\x18\x03\x00\x00\x00xyz", 11);
  CHECK(Unzstd(Zstd("a 1\n") + skippable + Zstd("b 2\n")) == "a 1\nb 2\n");
}

TEST_CASE("a stream cut short or followed by garbage is an error") {
  const std::string gz = Gzip(Text());
  CHECK(Gunzip(gz.substr(0, gz.size() - 5)).rfind(
            "ERROR: truncated gzip stream", 0) == 0);
  CHECK(Gunzip(gz + "junk").rfind("ERROR: trailing garbage after gzip stream",
                                  0) == 0);
  const std::string zs = Zstd(Text());
  CHECK(Unzstd(zs.substr(0, zs.size() - 3)).rfind(
            "ERROR: truncated zstd stream", 0) == 0);
  std::string bad = gz;
  bad[12] ^= 0x55;
  CHECK(Gunzip(bad).rfind("ERROR: corrupt gzip stream", 0) == 0);
}
