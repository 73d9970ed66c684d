// LineReader: lines without their '\n' (a '\r' stays), a last line without
// one, too-long lines skipped with kTooLong, line numbers, and the
// in-place scanning API (Buffered, SkipLines).
#include <doctest/doctest.h>

#include <string>
#include <string_view>

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

TEST_CASE("line reader: Buffered's bytes stay where they are until a refill") {
  // A scanner that parsed a line of Buffered() ahead may trust it only while
  // refills() is unchanged (FastStackLine's look-ahead does).
  StringSource src("first line\nsecond line\nthird\n", 12);
  LineReader reader(&src);
  std::string_view line;
  REQUIRE(reader.Next(&line) == LineReader::kLine);  // reads 12, then 12
  CHECK(line == "first line");
  const uint64_t refills = reader.refills();
  CHECK(refills > 0);
  CHECK(reader.Buffered() == "s");  // of "second line\n"
  REQUIRE(reader.Next(&line) == LineReader::kLine);  // needs more bytes
  CHECK(line == "second line");
  CHECK(reader.refills() > refills);  // the partial line moved to the front
  LineReader in_place(std::string_view("a\nb\n"));
  REQUIRE(in_place.Next(&line) == LineReader::kLine);
  REQUIRE(in_place.Next(&line) == LineReader::kLine);
  CHECK(in_place.refills() == 0);
}
