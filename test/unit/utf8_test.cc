// base/utf8: the one decoder and the one rule for invalid bytes. Invalid
// sequences are maximal subparts, each replaced by one U+FFFD (as Python's
// decode(errors='replace') does); NextCodePoint steps one byte over them
// (flamegraph.pl's character arithmetic); cuts never split a character.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "base/utf8.h"

using namespace flamefold;

namespace {

std::string Cleaned(std::string_view s) {
  std::string out;
  AppendValidUtf8(s, &out);
  return out;
}

}  // namespace

TEST_CASE("DecodeUtf8 decodes valid sequences of every length") {
  Utf8Sequence a = DecodeUtf8("a", 0);
  CHECK((a.valid && a.length == 1 && a.code_point == 'a'));
  Utf8Sequence e = DecodeUtf8("\xC3\xA9", 0);
  CHECK((e.valid && e.length == 2 && e.code_point == 0xE9));
  Utf8Sequence euro = DecodeUtf8("x\xE2\x82\xAC", 1);
  CHECK((euro.valid && euro.length == 3 && euro.code_point == 0x20AC));
  Utf8Sequence g = DecodeUtf8("\xF0\x9F\x98\x80", 0);
  CHECK((g.valid && g.length == 4 && g.code_point == 0x1F600));
  Utf8Sequence max = DecodeUtf8("\xF4\x8F\xBF\xBF", 0);
  CHECK((max.valid && max.code_point == 0x10FFFF));
}

TEST_CASE("DecodeUtf8 takes an invalid sequence as its maximal subpart") {
  auto invalid_length = [](std::string_view s) {
    Utf8Sequence seq = DecodeUtf8(s, 0);
    return seq.valid ? 0u : seq.length;
  };
  CHECK(invalid_length("\x80") == 1);              // stray continuation
  CHECK(invalid_length("\xFF") == 1);              // never a lead byte
  CHECK(invalid_length("\xC0\xAF") == 1);          // overlong lead
  CHECK(invalid_length("\xE0\x80\x80") == 1);      // overlong
  CHECK(invalid_length("\xED\xA0\x80") == 1);      // surrogate
  CHECK(invalid_length("\xF4\x90\x80\x80") == 1);  // above U+10FFFF
  CHECK(invalid_length("\xE2\x82") == 2);          // cut short at the end
  CHECK(invalid_length("\xE2\x82x") == 2);         // cut short by a byte
  CHECK(invalid_length("\xF0\x9F\x98x") == 3);
}

TEST_CASE("invalid bytes become one U+FFFD per maximal subpart") {
  CHECK(Cleaned("plain") == "plain");
  CHECK(Cleaned("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(Cleaned("bad\xFF\xFE" "byte") == "bad\xEF\xBF\xBD\xEF\xBF\xBD" "byte");
  CHECK(Cleaned("a\xE2\x82z") == "a\xEF\xBF\xBDz");
  CHECK(Cleaned("over\xC0\xAFlong") == "over\xEF\xBF\xBD\xEF\xBF\xBDlong");
  CHECK(Cleaned("\xF0\x9F\x98") == "\xEF\xBF\xBD");
  CHECK(IsValidUtf8("caf\xC3\xA9 \xF0\x9F\x98\x80"));
  CHECK_FALSE(IsValidUtf8("caf\xC3"));
  CHECK_FALSE(IsValidUtf8("\xED\xA0\x80"));
  CHECK(IsValidUtf8(Cleaned("\xE2\x82\xFF\x80\xC3")));
  // Long ASCII runs are checked eight bytes at a time: a bad byte anywhere
  // in or after them is still found.
  std::string ascii(37, 'x');
  CHECK(IsValidUtf8(ascii + "\xC3\xA9" + ascii));
  for (size_t at : {0, 7, 8, 15, 36}) {
    std::string bad = ascii;
    bad[at] = '\xFF';
    CHECK_FALSE(IsValidUtf8(bad));
    CHECK_FALSE(IsValidUtf8("\xC3\xA9" + bad));
  }
}

TEST_CASE("NextCodePoint counts a byte that starts no character as one") {
  size_t pos = 0;
  CHECK(NextCodePoint("\xE5\x87\xBDx", &pos) == 0x51FD);
  CHECK(pos == 3);
  pos = 0;
  CHECK(NextCodePoint("\xE2\x82x", &pos) == 0xE2);
  CHECK(pos == 1);
  CHECK(CodePointCount("caf\xC3\xA9") == 4);
  CHECK(CodePointCount("a\xE2\x82z") == 4);
  CHECK(CodePointPrefix("\xC3\xA9\xC3\xA9x", 1) == "\xC3\xA9");
  CHECK(CodePointPrefix("ab", 5) == "ab");
}

TEST_CASE("Utf8CutLength ends at a character boundary") {
  CHECK(Utf8CutLength("abcdef", 4) == 4);
  CHECK(Utf8CutLength("abc", 4) == 3);
  // "aé€": a (1 byte), é (2), € (3)
  const std::string s = "a\xC3\xA9\xE2\x82\xAC";
  CHECK(Utf8CutLength(s, 1) == 1);
  CHECK(Utf8CutLength(s, 2) == 1);  // inside é
  CHECK(Utf8CutLength(s, 3) == 3);
  CHECK(Utf8CutLength(s, 4) == 3);  // inside €
  CHECK(Utf8CutLength(s, 5) == 3);
  CHECK(Utf8CutLength(s, 6) == 6);
  // A 4-byte character straddling the limit goes whole.
  CHECK(Utf8CutLength("ab\xF0\x9F\x98\x80", 4) == 2);
  // Stray continuation bytes (invalid UTF-8): cut at the limit.
  CHECK(Utf8CutLength("\x80\x80\x80\x80\x80\x80", 5) == 5);
}


TEST_CASE("IsValidUtf8 finds a non-ASCII byte wherever it stands in a long line") {
  // The ASCII runs are skipped in blocks (64 and 16 bytes); a sequence at
  // any offset, valid or not, must still be looked at.
  for (size_t length : {1u, 15u, 16u, 17u, 63u, 64u, 65u, 130u}) {
    for (size_t at = 0; at < length; ++at) {
      std::string s(length, 'a');
      s[at] = '\xff';  // never valid
      CHECK_FALSE(IsValidUtf8(s));
      s[at] = '\x7f';
      CHECK(IsValidUtf8(s));
      if (at + 2 <= length) {
        s.replace(at, 2, "\xc3\xa9");  // U+00E9
        CHECK(IsValidUtf8(s));
        s[at + 1] = 'a';  // a lead byte without its continuation
        CHECK_FALSE(IsValidUtf8(s));
      }
    }
  }
}
