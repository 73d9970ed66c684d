// ParseHex: perf's hex2u64, digits up to the first other character.
#include <doctest/doctest.h>

#include <cstdint>

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
