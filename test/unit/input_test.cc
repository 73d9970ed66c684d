// The input layer (io/input.h): magic-byte detection, content sniffing,
// and errors of the decoders it puts in front, named by file and offset.
#include <doctest/doctest.h>

#include "io/input.h"
#include "test_inputs.h"

using namespace flamefold;
using flamefold::testing::Gzip;
using flamefold::testing::Zstd;

namespace {

// Opens `raw` (read in `chunk`-byte pieces) and returns all decoded text,
// or "ERROR: message".
std::string Decode(const std::string& raw, ContentKind* kind = nullptr,
                   size_t chunk = 7) {
  Input in;
  std::string err;
  if (!OpenSource("f", std::make_unique<StringSource>(raw, chunk), &in, &err)) {
    return "ERROR: " + err;
  }
  if (kind) *kind = in.kind;
  std::string all;
  char buf[5];
  for (;;) {
    size_t got = 0;
    if (!in.source->Read(buf, sizeof buf, &got, &err)) return "ERROR: f: " + err;
    if (got == 0) return all;
    all.append(buf, got);
  }
}

const std::string kText = "perf 1 1.0: 1 cycles:\n\tffff main (/bin/x)\n\n";

}  // namespace

TEST_CASE("gzip and zstd are found by magic bytes and decoded") {
  ContentKind kind;
  CHECK(Decode(Gzip(kText), &kind) == kText);
  CHECK(kind == ContentKind::kPerfScript);
  CHECK(Decode(Zstd(kText), &kind) == kText);
  CHECK(Decode(kText, &kind) == kText);
}

TEST_CASE("several gzip members and zstd frames read as one stream") {
  CHECK(Decode(Gzip("a;b 1\n") + Gzip("c 2\n")) == "a;b 1\nc 2\n");
  CHECK(Decode(Zstd("a;b 1\n") + Zstd("c 2\n")) == "a;b 1\nc 2\n");
}

TEST_CASE("truncated and corrupt streams are errors naming the byte offset") {
  // The offset is in the compressed input: where it ends, for a stream cut
  // short; where the garbage starts, after a whole gzip member.
  std::string gz = Gzip(kText + kText);
  CHECK(Decode(gz.substr(0, gz.size() - 5)) ==
        "ERROR: f: truncated gzip stream at byte " +
            std::to_string(gz.size() - 5));
  std::string zs = Zstd(kText + kText);
  CHECK(Decode(zs.substr(0, zs.size() - 3)) ==
        "ERROR: f: truncated zstd stream at byte " +
            std::to_string(zs.size() - 3));
  std::string bad = gz;
  bad[12] ^= 0x55;
  CHECK(Decode(bad).rfind("ERROR: f: corrupt gzip stream at byte ", 0) == 0);
  CHECK(Decode(gz + "junk") ==
        "ERROR: f: trailing garbage after gzip stream at byte " +
            std::to_string(gz.size()));
  CHECK(Decode(zs.substr(0, 4) + std::string(20, '\xff')).rfind(
            "ERROR: f: corrupt zstd stream at byte ", 0) == 0);
}

TEST_CASE("content sniffing") {
  CHECK(SniffText("") == ContentKind::kEmpty);
  CHECK(SniffText("a;b;c 12\nd 3\n") == ContentKind::kFolded);
  CHECK(SniffText("a;b 1.5\n# comment\n\nx 2") == ContentKind::kFolded);
  CHECK(SniffText(kText) == ContentKind::kPerfScript);
  CHECK(SniffText("perf 1234\n\tffff main (/x)\n") == ContentKind::kPerfScript);
  CHECK(HasPerfDataMagic("PERFILE2\x68\0\0\0"));
  ContentKind kind;
  Decode(Zstd(std::string("PERFILE2") + std::string(100, '\0')), &kind);
  CHECK(kind == ContentKind::kPerfData);
}

TEST_CASE("a junk line does not make a folded file perf script") {
  CHECK(SniffText("junk here\na;b 1\nc 2\n") == ContentKind::kFolded);
  CHECK(SniffText("perf 1 1.0: 1 cycles:\n\tffff main (/x)\n\na;b 1\n") ==
        ContentKind::kPerfScript);
  CHECK(SniffText("hello world\n") == ContentKind::kPerfScript);
}

TEST_CASE("a folded first line longer than the sniffed head is still folded") {
  // A 100,000-deep stack makes a first line of ~600 KB: the kind is decided
  // by its end, read past the usual 64 KiB head, plain and compressed.
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += (i ? ";f" : "f") + std::to_string(i);
  std::string text = deep + " 5\nshort;stack 1\n";
  for (const std::string& raw : {text, Gzip(text), Zstd(text)}) {
    ContentKind kind = ContentKind::kEmpty;
    CHECK(Decode(raw, &kind, 4096) == text);
    CHECK(kind == ContentKind::kFolded);
  }
  // One line without a newline at all stays bounded and is not folded.
  ContentKind kind = ContentKind::kEmpty;
  CHECK(Decode(std::string(20u << 20, 'a'), &kind, 1 << 16).size() == 20u << 20);
  CHECK(kind == ContentKind::kPerfScript);
}
