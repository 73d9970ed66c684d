// LineReader: lines without their '\n' (a '\r' stays), a last line without
// one, too-long lines skipped with kTooLong, line numbers, and the
// in-place scanning API (Buffered, SkipLines).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/byte_source.h"
#include "io/line_reader.h"

using namespace flamefold;

TEST_CASE("line reader: long lines, missing last newline, CR kept") {
  StringSource src("ab\r\n" + std::string(100, 'x') + "\nlast", 3);
  LineReader reader(&src, 50);
  std::string_view line;
  REQUIRE(reader.Next(&line) == LineReader::kLine);
  CHECK(line == "ab\r");
  CHECK(reader.Next(&line) == LineReader::kTooLong);
  REQUIRE(reader.Next(&line) == LineReader::kLine);
  CHECK(line == "last");
  CHECK(reader.last_line_unterminated());
  CHECK(reader.line_number() == 3);
  CHECK(reader.Next(&line) == LineReader::kEof);
}

TEST_CASE("line reader over text in memory reads the lines in place") {
  std::string text = "a\r\n\nlast";
  LineReader r{std::string_view(text)};
  std::string_view line;
  CHECK(r.Next(&line) == LineReader::kLine);
  CHECK(line == "a\r");
  CHECK(line.data() == text.data());  // not copied
  CHECK(r.Next(&line) == LineReader::kLine);
  CHECK(line.empty());
  CHECK(r.Next(&line) == LineReader::kLine);
  CHECK(line == "last");
  CHECK(r.last_line_unterminated());
  CHECK(r.line_number() == 3);
  CHECK(r.Next(&line) == LineReader::kEof);
  LineReader empty{std::string_view()};
  CHECK(empty.Next(&line) == LineReader::kEof);
  LineReader limited(std::string_view("abc\nde\nfghij"), 2);
  CHECK(limited.Next(&line) == LineReader::kTooLong);
  CHECK(limited.Next(&line) == LineReader::kLine);
  CHECK(line == "de");
  CHECK(limited.Next(&line) == LineReader::kTooLong);
  CHECK(limited.line_number() == 3);
  CHECK(limited.Next(&line) == LineReader::kEof);
}

TEST_CASE("line reader: Buffered shows unread bytes, SkipLines consumes them") {
  StringSource src("one\ntwo\nthree\n");
  LineReader r(&src);
  std::string_view line;
  REQUIRE(r.Next(&line) == LineReader::kLine);
  CHECK(line == "one");
  CHECK(r.Buffered() == "two\nthree\n");
  r.SkipLines(4, 1);  // "two\n"
  CHECK(r.line_number() == 2);
  REQUIRE(r.Next(&line) == LineReader::kLine);
  CHECK(line == "three");
  CHECK(r.line_number() == 3);
  CHECK_FALSE(r.last_line_unterminated());
  CHECK(r.Next(&line) == LineReader::kEof);
}

TEST_CASE("line reader: lines across many small reads come out whole") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "line " + std::to_string(i) + "\n";
  StringSource src(text, 13);
  LineReader r(&src);
  std::string_view line;
  int n = 0;
  bool same = true;
  while (r.Next(&line) == LineReader::kLine) {
    same = same && line == "line " + std::to_string(n);
    ++n;
  }
  CHECK(same);
  CHECK(n == 5000);
  CHECK(r.bytes_read() == text.size());
}

namespace {

// Every line of `text` read through `reader`, with its result code.
std::vector<std::pair<int, std::string>> AllLines(LineReader* reader) {
  std::vector<std::pair<int, std::string>> lines;
  std::string_view line;
  for (;;) {
    LineReader::Result r = reader->Next(&line);
    if (r == LineReader::kEof || r == LineReader::kError) break;
    lines.emplace_back(r, r == LineReader::kLine ? std::string(line) : "");
  }
  return lines;
}

}  // namespace

TEST_CASE("line reader: lent blocks give the lines that reads give") {
  // Lines inside a block are read in place; a line across blocks (or
  // several), a line longer than the limit across blocks, an empty line at
  // a block's start and a last line without '\n' come out as from reads.
  std::string text = "short\n" + std::string(70, 'L') + "\n\nend of line\n" +
                     std::string(25, 'm') + "\nx\r\n" + std::string(200, 'z') +
                     "\n" + "tail";
  for (size_t chunk : {1, 2, 3, 7, 16, 64, 1000}) {
    CAPTURE(chunk);
    StringSource read_src(text, chunk), lent_src(text, chunk, true);
    LineReader read(&read_src, 60), lent(&lent_src, 60);
    CHECK(lent_src.CanLend());
    auto want = AllLines(&read);
    CHECK(AllLines(&lent) == want);
    CHECK(lent.line_number() == read.line_number());
    CHECK(lent.bytes_read() == text.size());
    CHECK(lent.last_line_unterminated());
    std::string_view line;
    CHECK(lent.Next(&line) == LineReader::kEof);
  }
}

TEST_CASE("line reader: lines inside a lent block are not copied") {
  const std::string text = "one\ntwo\nthree";
  MemorySource src(text);
  LineReader r(&src);
  std::string_view line;
  REQUIRE(r.Next(&line) == LineReader::kLine);
  CHECK(line.data() == text.data());
  CHECK(r.Buffered() == "two\nthree");
  r.SkipLines(4, 1);
  REQUIRE(r.Next(&line) == LineReader::kLine);
  CHECK(line == "three");
  CHECK(r.line_number() == 3);
  CHECK(r.Next(&line) == LineReader::kEof);
}

TEST_CASE("line reader: random texts read the same lent and read") {
  std::mt19937 rng(3);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    for (int n = rng() % 40; n > 0; --n) {
      text.append(rng() % 4 == 0 ? rng() % 90 : rng() % 8, 'a' + rng() % 26);
      if (rng() % 8 != 0) text += '\n';
    }
    const size_t chunk = 1 + rng() % 50, limit = 1 + rng() % 80;
    StringSource read_src(text, chunk), lent_src(text, chunk, true);
    LineReader read(&read_src, limit), lent(&lent_src, limit);
    CHECK(AllLines(&lent) == AllLines(&read));
    CHECK(lent.line_number() == read.line_number());
    CHECK(lent.last_line_unterminated() == read.last_line_unterminated());
  }
}
