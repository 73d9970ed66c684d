// ParseHex: perf's hex2u64, digits up to the first other character.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "base/hex.h"

using flamefold::ParseHex;

TEST_CASE("ParseHex reads the hex digits at the front, either case") {
  uint64_t v = 1;
  CHECK(ParseHex("ffffffff81000000 T _text", &v) == 16);
  CHECK(v == 0xffffffff81000000);
  CHECK(ParseHex("7fAB-8000", &v) == 4);
  CHECK(v == 0x7fab);
  CHECK(ParseHex("0", &v) == 1);
  CHECK(v == 0);
  // None: zero digits, and the value is 0 (not left as it was).
  v = 5;
  CHECK(ParseHex("", &v) == 0);
  CHECK(v == 0);
  v = 5;
  CHECK(ParseHex("xyz", &v) == 0);
  CHECK(v == 0);
  // "0x" is not skipped (callers that accept it strip it first).
  CHECK(ParseHex("0x10", &v) == 1);
  CHECK(v == 0);
}

// The reference: a digit at a time, as perf's hex2u64 reads them.
static size_t SlowParseHex(std::string_view s, uint64_t* v) {
  uint64_t value = 0;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) break;
    value = (value << 4) | static_cast<uint64_t>(d);
  }
  *v = value;
  return i;
}

TEST_CASE("ParseHex reads 16 digits at once as it reads them one by one") {
  uint64_t v = 0;
  CHECK(ParseHex("0123456789abcdef", &v) == 16);
  CHECK(v == 0x0123456789abcdefull);
  CHECK(ParseHex("FEDCBA9876543210\t[mod]", &v) == 16);
  CHECK(v == 0xfedcba9876543210ull);
  // More than 16: the first digits shift out, as in perf.
  CHECK(ParseHex("123456789abcdef012", &v) == 18);
  CHECK(v == 0x3456789abcdef012ull);
  // The bytes next to the digit ranges, and bytes >= 0x80, end the number
  // wherever they stand among the first 16.
  const char around[] = {'/', ':', '@', 'G', '`', 'g', '\x80', '\xff', '\0', ' '};
  for (size_t at = 0; at < 17; ++at) {
    for (char c : around) {
      std::string s = "ffffffff81000000ab";
      s[at] = c;
      uint64_t want = 0, got = 1;
      size_t n = SlowParseHex(s, &want);
      CHECK(ParseHex(s, &got) == n);
      CHECK(got == want);
    }
  }
  // Random strings of digits, either case, and other bytes.
  uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  const std::string alphabet = "0123456789abcdefABCDEF x\x80";
  for (int round = 0; round < 20000; ++round) {
    std::string s(next() % 24, '0');
    for (char& c : s) {
      c = next() % 8 == 0 ? alphabet[next() % alphabet.size()]
                          : alphabet[next() % 22];
    }
    uint64_t want = 0, got = 1;
    size_t n = SlowParseHex(s, &want);
    CHECK(ParseHex(s, &got) == n);
    CHECK(got == want);
  }
}
