// BigArray and BigReallocate: contents survive growth, across the 2 MiB
// line where blocks become mappings that are moved rather than copied.
#include <doctest/doctest.h>

#include <cstdint>

#include "flamefold/big_alloc.h"

using flamefold::BigArray;

TEST_CASE("BigArray keeps every value while it grows past several mappings") {
  BigArray<uint32_t> a;
  const uint32_t n = 3u << 20;  // 12 MiB of values: small, then mapped blocks
  for (uint32_t i = 0; i < n; ++i) a.push_back(i * 2654435761u);
  REQUIRE(a.size() == n);
  bool all = true;
  for (uint32_t i = 0; i < n; ++i) all = all && a[i] == i * 2654435761u;
  CHECK(all);
  uint32_t more[5] = {1, 2, 3, 4, 5};
  a.append(more, 5);
  CHECK(a.size() == n + 5);
  CHECK(a[n + 4] == 5);
  CHECK(a[n - 1] == (n - 1) * 2654435761u);
}

TEST_CASE("BigArray moves and empties") {
  BigArray<uint64_t> a;
  std::vector<uint64_t> big(1u << 19, 7);  // 4 MiB in one append
  a.append(big.data(), big.size());
  a.push_back(9);
  BigArray<uint64_t> b = std::move(a);
  CHECK(a.empty());
  CHECK(b.size() == big.size() + 1);
  CHECK(b[0] == 7);
  CHECK(b[big.size()] == 9);
  b = {};
  CHECK(b.empty());
  b.push_back(3);
  CHECK(b[0] == 3);
}
