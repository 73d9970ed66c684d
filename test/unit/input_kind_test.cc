// The detector of input kinds (collapse/input_kind.h): magic bytes, the
// rule that tells text apart, and errors of the decoders it puts in front,
// named by file and offset.
#include <doctest/doctest.h>
#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "collapse/input_kind.h"
#include "test_inputs.h"

using namespace flamefold;
using flamefold::testing::Gzip;
using flamefold::testing::TestFile;
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

ContentKind KindOf(std::string_view text) { return KindOfHead(text, true); }

const std::string kText = "perf 1 1.0: 1 cycles:\n\tffff main (/bin/x)\n\n";

// The first bytes of perf.data: the magic, then the header size, in the
// byte order of the machine that wrote it.
std::string PerfDataStartBytes(uint64_t header_size, bool swapped) {
  std::string bytes = swapped ? "2ELIFREP" : "PERFILE2";
  for (int i = 0; i < 8; ++i) {
    int shift = swapped ? 8 * (7 - i) : 8 * i;
    bytes += static_cast<char>((header_size >> shift) & 0xff);
  }
  return bytes;
}

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

TEST_CASE("text: one line only perf script prints makes perf script") {
  CHECK(KindOf("") == ContentKind::kEmpty);
  CHECK(KindOf(kText) == ContentKind::kPerfScript);
  // An indented frame line, even with no header the parser knows.
  CHECK(KindOf("perf 1234\n\tffff main (/x)\n") == ContentKind::kPerfScript);
  // A sample header with its event, even with no stack below it.
  CHECK(KindOf("perf 12345 [001] 1234.567890: 250000 cpu-clock:u:\n") ==
        ContentKind::kPerfScript);
  // Folded lines after a sample do not make it folded.
  CHECK(KindOf("perf 1 1.0: 1 cycles:\n\tffff main (/x)\n\na;b 1\n") ==
        ContentKind::kPerfScript);
  // Indented prose or code is no frame: its first word is no address, or
  // the rest follows it without a space.
  CHECK(KindOf("int f() {\n  for (int i = 0; i < n; ++i) s += (x * i);\n"
               "  return add (s);\n}\n") == ContentKind::kNeither);
  CHECK(KindOf("notes:\n  golden-flamefold (every case, by file)\n") ==
        ContentKind::kNeither);
  // An indented line of prose may read as a frame: the lines around it
  // outvote it.
  CHECK(KindOf("Notes\n\n  a `#` line with a count (one a double holds).\n"
               "and more notes\n") == ContentKind::kNeither);
  // Stack lines with no header still make perf script, as do odd lines
  // among them.
  CHECK(KindOf("\t401000 leaf+0x10 (/usr/bin/app)\n\t401100 main (/usr/bin/app)"
               "\n\t    [unknown] ([unknown])\n") == ContentKind::kPerfScript);
  CHECK(KindOf("\t    ffffffff8103ce3b native_safe_halt+0xb ([kernel.kallsyms])"
               "\n") == ContentKind::kPerfScript);
  // A header with no event (trace fields follow it) is no such line.
  CHECK(KindOf("perf 1 2.0: 1 kmem:kmalloc: call_site=1\n") ==
        ContentKind::kNeither);
}

TEST_CASE("text: folded when its STACK COUNT lines are not outnumbered") {
  CHECK(KindOf("a;b;c 12\nd 3\n") == ContentKind::kFolded);
  CHECK(KindOf("a;b 1.5\n# comment\n\nx 2") == ContentKind::kFolded);
  CHECK(KindOf("junk here\na;b 1\nc 2\n") == ContentKind::kFolded);
  CHECK(KindOf("a;b 3\nnot a stack\n") == ContentKind::kFolded);
  // An indented line that is no frame counts against, as any odd line.
  CHECK(KindOf("a;b 3\n 7\nc 1\n") == ContentKind::kFolded);
  CHECK(KindOf("a;b 3\n 7\n\tx\n") == ContentKind::kNeither);
  // Notes with a line that ends in a number are no profile.
  CHECK(KindOf("Chapter 1\nsome words\nmore words\n") == ContentKind::kNeither);
  CHECK(KindOf("hello world\n") == ContentKind::kNeither);
  // "\r\n" line ends are read as "\n".
  CHECK(KindOf("a;b 3\r\nc 1\r\n") == ContentKind::kFolded);
}

TEST_CASE("text: a last line cut off by the read size says nothing") {
  CHECK(KindOfHead("a;b 1\nc 2", true) == ContentKind::kFolded);
  CHECK(KindOfHead("x y\nc 2", true) == ContentKind::kFolded);
  CHECK(KindOfHead("x y\nc 2", false) == ContentKind::kNeither);
  CHECK(KindOfHead("\tffff main (/x)", true) == ContentKind::kPerfScript);
  CHECK(KindOfHead("\tffff main (/x)", false) == ContentKind::kNeither);
}

TEST_CASE("binary data is neither, and said to be binary") {
  bool binary = false;
  CHECK(KindOfHead(std::string("\x01\x02\0\x03 junk\n", 10), true, &binary) ==
        ContentKind::kNeither);
  CHECK(binary);
  CHECK(KindOfHead("a;b 1\n", true, &binary) == ContentKind::kFolded);
  CHECK_FALSE(binary);
}

TEST_CASE("perf.data: the magic in either byte order, pipe mode by its size") {
  PerfDataStart start;
  CHECK(ReadPerfDataStart(PerfDataStartBytes(104, false), &start));
  CHECK_FALSE(start.swapped);
  CHECK(start.header_size == 104);
  CHECK(ReadPerfDataStart(PerfDataStartBytes(16, true), &start));
  CHECK(start.swapped);
  CHECK(start.header_size == 16);
  CHECK(ReadPerfDataStart("PERFILE2\x68", &start));
  CHECK(start.header_size == 0);  // cut short
  CHECK_FALSE(ReadPerfDataStart("PERFILE", &start));
  CHECK_FALSE(ReadPerfDataStart("perfile2xxxxxxxx", &start));

  CHECK(KindOf(PerfDataStartBytes(104, false)) == ContentKind::kPerfData);
  CHECK(KindOf(PerfDataStartBytes(16, false)) == ContentKind::kPerfDataPipe);
  CHECK(KindOf(PerfDataStartBytes(16, true)) == ContentKind::kPerfDataPipe);
  CHECK(KindOf(PerfDataStartBytes(99, true)) == ContentKind::kPerfData);
  CHECK(KindOf("PERFILE") == ContentKind::kNeither);
  ContentKind kind;
  Decode(Zstd(std::string("PERFILE2") + std::string(100, '\0')), &kind);
  CHECK(kind == ContentKind::kPerfData);
  Decode(Gzip(PerfDataStartBytes(16, false) + std::string(100, '\0')), &kind);
  CHECK(kind == ContentKind::kPerfDataPipe);
}

TEST_CASE("a folded first line longer than the read size is still folded") {
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
  // One line without a newline at all stays bounded and is neither.
  ContentKind kind = ContentKind::kEmpty;
  CHECK(Decode(std::string(20u << 20, 'a'), &kind, 1 << 16).size() == 20u << 20);
  CHECK(kind == ContentKind::kNeither);
}

namespace {

// What each file of testdata/ is, by the first pattern its path (under
// testdata/) matches; "error" when it cannot be opened and decoded.
struct ExpectedKind {
  const char* pattern;
  const char* kind;
};
constexpr ExpectedKind kTestdataKinds[] = {
    // Compressed streams cut short or damaged.
    {"bad/cut*.txt.*", "error"},
    {"bad/flip.txt.*", "error"},
    {"bad/forged-*.txt.*", "error"},
    {"bad/trailing-garbage.txt.gz", "error"},
    // perf.data, whole or damaged after its first 16 bytes.
    {"bad/perf-data-cut-7.data", "neither"},      // the magic cut short
    {"bad/perf-data-zstd-flip.data", "neither"},  // a bit of it flipped
    {"bad/perf-data-dwarf-flip-*.data", "perf.data (pipe)"},
    {"bad/perf-data-pipe-*.data", "perf.data (pipe)"},
    {"perf-data/pipe/perf.data", "perf.data (pipe)"},
    {"perf-data/*/small-pipe.data", "perf.data (pipe)"},
    {"bad/perf-data-*.data", "perf.data"},
    {"perf-data/*/perf.data", "perf.data"},
    {"flamereport/*.data", "perf.data"},
    // Folded stacks, and difffolded.pl's output (two counts a line).
    {"*.folded", "folded"},
    {"bad/nul-in-folded.txt", "folded"},
    {"expected/flamefold/*", "folded"},
    {"expected/collapse-recursion/*", "folded"},
    {"flamegraph-tests/results/*", "folded"},
    {"flamediff/*.expected", "folded"},
    // perf script output; stackcollapse-perf.pl also reads a form with
    // frames not indented and headers with no time stamp, which is neither
    // here (flamefold reads it as perf script all the same).
    {"flamegraph-tests/perf-java-stacks-02.txt.gz", "neither"},
    {"flamegraph-tests/*.txt.gz", "perf script"},
    {"perf-script/*.txt*", "perf script"},
    {"bad/*perf-script*.txt", "perf script"},
    {"example/example-perf.txt.gz", "perf script"},
    {"perf-data/*/script.txt.gz", "perf script"},
    {"perf-data/time-range/*.txt.gz", "perf script"},
    {"fold-vs-perl/seed-*.tar.gz", "perf script"},  // its first member's
    // Everything else: SVGs, symbol tables, binaries, sources, notes.
    {"*", "neither"},
};

std::string KindName(ContentKind kind) {
  switch (kind) {
    case ContentKind::kEmpty: return "empty";
    case ContentKind::kPerfData: return "perf.data";
    case ContentKind::kPerfDataPipe: return "perf.data (pipe)";
    case ContentKind::kPerfScript: return "perf script";
    case ContentKind::kFolded: return "folded";
    case ContentKind::kNeither: return "neither";
  }
  return "?";
}

std::string ExpectedFor(const std::string& rel) {
  for (const ExpectedKind& e : kTestdataKinds) {
    if (fnmatch(e.pattern, rel.c_str(), 0) == 0) return e.kind;
  }
  return "?";
}

// The kind of the file at `path` as every tool opens it, or "error".
std::string KindOfFile(const std::string& path) {
  Input in;
  std::string err;
  return OpenInput(path, &in, &err) ? KindName(in.kind) : "error";
}

// The kind of `bytes` read as a stream, or "error".
std::string KindOfBytes(const std::string& bytes) {
  Input in;
  std::string err;
  return OpenSource("f", std::make_unique<StringSource>(bytes), &in, &err)
             ? KindName(in.kind)
             : "error";
}

}  // namespace

TEST_CASE("every file of testdata/ is of the kind expected, compressed too") {
  const std::filesystem::path root = TestFile("");
  size_t files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string();
    const std::string rel = entry.path().lexically_relative(root).string();
    const std::string expected = ExpectedFor(rel);
    CAPTURE(rel);
    CHECK(KindOfFile(path) == expected);
    ++files;
    // A file that is not compressed itself: its gzip and zstd copies are
    // what it is. The first MiB is enough (the kind is read from less).
    std::ifstream in(path, std::ios::binary);
    std::string bytes(1u << 20, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<size_t>(in.gcount()));
    if (bytes.compare(0, 2, "\x1f\x8b") == 0 ||
        bytes.compare(0, 4, "\x28\xb5\x2f\xfd") == 0) {
      continue;
    }
    CHECK(KindOfBytes(Gzip(bytes)) == expected);
    CHECK(KindOfBytes(Zstd(bytes)) == expected);
  }
  CHECK(files > 400);
}
