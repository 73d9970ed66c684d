// Arena: blocks double from 64 KiB to 4 MiB; every view handed out stays
// valid and keeps its bytes as later blocks are added, whatever the sizes.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/arena.h"

TEST_CASE("Arena keeps every stored string across growing blocks") {
  flamefold::Arena arena;
  std::vector<std::string> want;
  std::vector<std::string_view> got;
  size_t bytes = 0;
  // Short names first (the first small blocks), then ones that straddle a
  // block's end, one larger than any block, and short ones after it.
  for (int i = 0; i < 200000; ++i) {
    size_t n = i == 150000 ? (5u << 20) : (i * 7919u) % 300;
    std::string s(n, static_cast<char>('a' + i % 26));
    if (!s.empty()) s[0] = static_cast<char>('A' + i % 26);
    got.push_back(arena.Store(s));
    bytes += n;
    want.push_back(std::move(s));
  }
  CHECK(arena.bytes_used() == bytes);
  bool same = true;
  for (size_t i = 0; i < want.size(); ++i) same = same && got[i] == want[i];
  CHECK(same);
}

// Allocate hands out room that no later Store or Allocate overwrites, with
// the same block growth; Store is Allocate and a copy.
TEST_CASE("Arena::Allocate's room stays the caller's across blocks") {
  flamefold::Arena arena;
  std::vector<std::pair<char*, size_t>> rooms;
  size_t bytes = 0;
  for (int i = 0; i < 50000; ++i) {
    size_t n = i == 30000 ? (5u << 20) : (i * 7919u) % 300;
    char* p = arena.Allocate(n);
    for (size_t k = 0; k < n; ++k) p[k] = static_cast<char>(i + k);
    rooms.push_back({p, n});
    bytes += n;
    if (i % 3 == 0) bytes += arena.Store("interleaved").size();
  }
  CHECK(arena.bytes_used() == bytes);
  bool same = true;
  for (size_t i = 0; i < rooms.size(); ++i) {
    for (size_t k = 0; k < rooms[i].second; ++k) {
      same = same && rooms[i].first[k] == static_cast<char>(i + k);
    }
  }
  CHECK(same);
}
