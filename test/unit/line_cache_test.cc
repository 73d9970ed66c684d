// LineCache: a stored line is found only where the bytes are that very line.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <string_view>

#include "collapse/line_cache.h"

using flamefold::LineCache;

namespace {
// As the parser looks: the stored line that the bytes at `p` start with,
// found by the hash of their first kKeyBytes bytes; its length, or 0. Where
// those bytes hold a whole line, Find (given that line) must agree.
size_t FindAt(const LineCache& cache, const char* p, size_t avail,
              uint32_t tag, uint32_t* value) {
  if (avail < LineCache::kKeyBytes) return 0;
  uint32_t found_value = UINT32_MAX;
  size_t length = 0;
  const bool found = cache.FindAt(p, avail, tag, cache.HashAhead(p, tag),
                                  &found_value, &length);
  const void* nl = std::memchr(p, '\n', avail);
  const size_t line_length =
      nl ? static_cast<const char*>(nl) - p + 1 : 0;
  if (line_length >= LineCache::kKeyBytes) {  // Find's lines are no shorter
    const std::string_view line(p, line_length);
    uint32_t by_line = UINT32_MAX;
    CHECK(cache.Find(line, tag, &by_line) == found);
    if (found) CHECK(length == line.size());
    CHECK(by_line == found_value);
  }
  if (found) *value = found_value;
  return found ? length : 0;
}

const std::string kLine =
    "\t    7f3a1d024422 pthread_mutex_lock+0x13e (/usr/lib/libc.so.6)\n";
}

TEST_CASE("a stored line is found at the start of the buffer, with its value") {
  LineCache cache;
  cache.Insert(kLine, 0, 42);
  std::string buf = kLine + "\tffff next (m)\n";
  uint32_t value = 0;
  CHECK(FindAt(cache, buf.data(), buf.size(), 0, &value) == kLine.size());
  CHECK(value == 42);
  CHECK(cache.size() == 1);
  cache.Insert(kLine, 0, 7);  // already there: kept as it was
  CHECK(cache.size() == 1);
  CHECK(FindAt(cache, buf.data(), buf.size(), 0, &value) == kLine.size());
  CHECK(value == 42);
}

TEST_CASE("the tag is part of the key") {
  LineCache cache;
  cache.Insert(kLine, 1, 5);
  uint32_t value = 0;
  CHECK(FindAt(cache, kLine.data(), kLine.size(), 0, &value) == 0);
  CHECK(FindAt(cache, kLine.data(), kLine.size(), 1, &value) == kLine.size());
  cache.Insert(kLine, 0, 6);
  CHECK(FindAt(cache, kLine.data(), kLine.size(), 0, &value) == kLine.size());
  CHECK(value == 6);
}

TEST_CASE("lines that share the hashed prefix are told apart by all their bytes") {
  // Same first 32 bytes, different symbol end, module or length.
  const std::string a = "\t    7f3a1d024422 pthread_mutex_lock+0x13e (/a.so)\n";
  const std::string b = "\t    7f3a1d024422 pthread_mutex_lock+0x13e (/b.so)\n";
  const std::string c = "\t    7f3a1d024422 pthread_mutex_lock+0x13e (/a.so)x\n";
  LineCache cache;
  cache.Insert(a, 0, 1);
  cache.Insert(b, 0, 2);
  uint32_t value = 0;
  CHECK(FindAt(cache, b.data(), b.size(), 0, &value) == b.size());
  CHECK(value == 2);
  CHECK(FindAt(cache, a.data(), a.size(), 0, &value) == a.size());
  CHECK(value == 1);
  CHECK(FindAt(cache, c.data(), c.size(), 0, &value) == 0);
  // A line that differs only in its '\n' (the line goes on) is not a match.
  std::string longer = a.substr(0, a.size() - 1) + " more\n";
  CHECK(FindAt(cache, longer.data(), longer.size(), 0, &value) == 0);
  // Nor is a stored line longer than the bytes at hand.
  CHECK(FindAt(cache, a.data(), a.size() - 1, 0, &value) == 0);
  // A line shorter than the key ends at a later line's '\n': no match.
  cache.Insert("\t    7f3a1d024422 f+0x1 (/a.so)\n", 0, 3);
  std::string two = "\tffff g (m)\n\t    7f3a1d024422 f+0x1 (/a.so)\n";
  CHECK(FindAt(cache, two.data(), two.size(), 0, &value) == 0);
  CHECK(FindAt(cache, two.data() + 12, two.size() - 12, 0, &value) == two.size() - 12);
  CHECK(value == 3);
}

TEST_CASE("short lines, lines without '\\n' and a full cache are not stored") {
  LineCache small(2, 1 << 20);
  small.Insert("\tffff f (m)\n", 0, 1);                      // shorter than the key
  small.Insert(kLine.substr(0, kLine.size() - 1), 0, 1);  // no '\n'
  CHECK(small.size() == 0);
  for (int i = 0; i < 100; ++i) {
    small.Insert(kLine.substr(0, 10) + std::to_string(i) + kLine.substr(10), 0, i);
  }
  CHECK(small.size() == 2);
  LineCache few_bytes(1000, 100);
  few_bytes.Insert(kLine, 0, 1);
  few_bytes.Insert("\t    7f3a1d024422 other_function+0x13e (/usr/lib/libc.so.6)\n", 0, 2);
  CHECK(few_bytes.size() == 1);
}

TEST_CASE("many lines: each is found with its own value after the table grows") {
  LineCache cache;
  std::string all;
  for (int i = 0; i < 5000; ++i) {
    std::string line = "\t    " + std::to_string(1000000 + i) + " f" +
                       std::to_string(i % 7) + "+0x1 (/usr/lib/libm.so)\n";
    cache.Insert(line, i % 2, i);
    all += line;
  }
  CHECK(cache.size() == 5000);
  size_t at = 0;
  for (int i = 0; i < 5000; ++i) {
    uint32_t value = UINT32_MAX;
    size_t n = FindAt(cache, all.data() + at, all.size() - at, i % 2, &value);
    REQUIRE(n > 0);
    CHECK(value == static_cast<uint32_t>(i));
    at += n;
  }
  CHECK(at == all.size());
}

TEST_CASE("Share: a parser among N keeps an N-th of the lines and bytes") {
  // Lines of 64 bytes: a default cache is full at kMaxLines lines (16 MiB
  // would hold more), a quarter share at a quarter of them; sharing among
  // one or none leaves the defaults. Lines stored before Share stay found.
  auto line = [](size_t i) {
    std::string s = "\t    " + std::to_string(100000000 + i) +
                    " fn+0x1 (/usr/lib/libshared.so.1)";
    s.resize(63, ' ');
    return s + "\n";
  };
  auto fill = [&](LineCache* cache, size_t from) {
    for (size_t i = from; i < LineCache::kMaxLines + 10; ++i) {
      cache->Insert(line(i), 0, static_cast<uint32_t>(i));
    }
    return cache->size();
  };
  LineCache lone, one, quarter;
  one.Share(1);
  quarter.Insert(line(0), 0, 0);
  quarter.Share(4);
  CHECK(fill(&lone, 0) == LineCache::kMaxLines);
  CHECK(fill(&one, 0) == LineCache::kMaxLines);
  CHECK(fill(&quarter, 1) == LineCache::kMaxLines / 4);
  uint32_t value = UINT32_MAX;
  CHECK(quarter.Find(line(0), 0, &value));
  CHECK(value == 0);
  CHECK_FALSE(quarter.Find(line(LineCache::kMaxLines / 4 + 5), 0, &value));
  // Long lines: the byte share binds first (4 MiB of 4 KiB lines).
  LineCache bytes;
  bytes.Share(4);
  for (size_t i = 0; i < 2000; ++i) {
    std::string s = line(i);
    s.insert(20, 4096 - s.size(), 'x');
    bytes.Insert(s, 0, static_cast<uint32_t>(i));
  }
  CHECK(bytes.size() == LineCache::kMaxBytes / 4 / 4096);
}
