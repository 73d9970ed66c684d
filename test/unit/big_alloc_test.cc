// BigArray, BigReallocate, BigAllocateZeroed and BigPrefault: contents
// survive growth, across the 512 KiB line where blocks become mappings that
// are moved rather than copied; zeroed mapped blocks come faulted in, and
// prefaulted ones without a change of their bytes.
#include <doctest/doctest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "base/big_alloc.h"

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

TEST_CASE("BigArray::resize_for_overwrite keeps what was there and grows") {
  BigArray<char> a;
  a.resize_for_overwrite(100);  // below the mapped size
  CHECK(a.size() == 100);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<char>('a' + i % 26);
  // Across the 512 KiB line, then from one mapping to a larger one.
  for (size_t n : {size_t{600} << 10, size_t{3} << 20, size_t{9} << 20}) {
    size_t old = a.size();
    a.resize_for_overwrite(n);
    REQUIRE(a.size() == n);
    bool kept = true;
    for (size_t i = 0; i < old; ++i) {
      kept = kept && a[i] == static_cast<char>('a' + i % 26);
    }
    CHECK(kept);
    for (size_t i = old; i < n; ++i) a[i] = static_cast<char>('a' + i % 26);
  }
  a.resize_for_overwrite(10);  // shrinking keeps the front
  CHECK(a.size() == 10);
  CHECK(a[9] == 'j');
}

TEST_CASE("BigAllocate blocks on both sides of the mapped size hold their bytes") {
  for (size_t n : {size_t{1} << 10, (size_t{512} << 10) - 1, size_t{512} << 10,
                   (size_t{2} << 20) + 1}) {
    char* p = static_cast<char*>(flamefold::BigAllocate(n));
    std::memset(p, 0x5a, n);
    char* q = static_cast<char*>(flamefold::BigReallocate(p, n, 2 * n + 7));
    bool same = true;
    for (size_t i = 0; i < n; ++i) same = same && q[i] == 0x5a;
    CHECK(same);
    q[2 * n + 6] = 1;  // the whole new size is writable
    flamefold::BigFree(q, 2 * n + 7);
  }
}

// Whether this kernel takes MADV_POPULATE_WRITE (Linux 5.14 and later).
static bool KernelPopulates() {
  void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  bool ok = madvise(p, 4096, 23 /* MADV_POPULATE_WRITE */) == 0;
  munmap(p, 4096);
  return ok;
}

TEST_CASE("BigAllocateZeroed gives zeros, a mapped block already faulted in") {
  for (size_t n : {size_t{4} << 10, size_t{512} << 10, (size_t{3} << 20) + 5}) {
    CAPTURE(n);
    char* p = static_cast<char*>(flamefold::BigAllocateZeroed(n));
    size_t pages = (n + 4095) / 4096;
    if (n >= (size_t{512} << 10) && KernelPopulates()) {
      // Every page the caller asked for is resident before it is touched
      // (a hash table reads slots before writing them: no zero-page
      // mapping, then a second fault).
      std::vector<unsigned char> resident(pages);
      REQUIRE(mincore(p, pages * 4096, resident.data()) == 0);
      size_t in = 0;
      for (unsigned char r : resident) in += r & 1;
      CHECK(in == pages);
    }
    bool zero = true;
    for (size_t i = 0; i < n; ++i) zero = zero && p[i] == 0;
    CHECK(zero);
    p[n - 1] = 1;
    flamefold::BigFree(p, n);
  }
}

TEST_CASE("BigPrefault makes the pages resident and keeps every byte") {
  // Mapped blocks and blocks of the heap (whose first and last pages may
  // hold other blocks): each byte, and the neighbours', stay as they were.
  for (size_t n : {size_t{1000}, size_t{64} << 10, (size_t{300} << 10) + 7,
                   (size_t{2} << 20) + 3}) {
    CAPTURE(n);
    std::vector<char> before(100, 'b'), after(100, 'a');
    char* p = static_cast<char*>(flamefold::BigAllocate(n));
    for (size_t i = 0; i < n; i += 4096) p[i] = static_cast<char>(i / 4096);
    p[n - 1] = 'z';
    flamefold::BigPrefault(p, n, n);
    bool kept = p[n - 1] == 'z';
    for (size_t i = 0; i < n - 1; i += 4096) {
      kept = kept && p[i] == static_cast<char>(i / 4096);
    }
    CHECK(kept);
    CHECK(before == std::vector<char>(100, 'b'));
    CHECK(after == std::vector<char>(100, 'a'));
    flamefold::BigFree(p, n);
  }
  if (!KernelPopulates()) return;
  // A fresh mapped block: nothing is resident until the advice, then the
  // asked-for part is (the rest of the 2 MiB unit stays untouched).
  size_t n = size_t{1} << 20;
  char* p = static_cast<char*>(flamefold::BigAllocate(n));
  auto resident = [&](size_t bytes) {
    std::vector<unsigned char> r(bytes / 4096);
    REQUIRE(mincore(p, bytes, r.data()) == 0);
    size_t in = 0;
    for (unsigned char c : r) in += c & 1;
    return in;
  };
  CHECK(resident(n) == 0);
  flamefold::BigPrefault(p, n, n / 2);
  CHECK(resident(n) == n / 2 / 4096);
  flamefold::BigFree(p, n);
}

TEST_CASE("BigPrefaultCapacity faults in a vector's reserved room") {
  flamefold::BigVector<uint64_t> v;
  v.reserve(100000);  // 800 KB: mapped
  flamefold::BigPrefaultCapacity(&v);
  if (KernelPopulates()) {
    std::vector<unsigned char> r(800000 / 4096);
    REQUIRE(mincore(v.data(), r.size() * 4096, r.data()) == 0);
    size_t in = 0;
    for (unsigned char c : r) in += c & 1;
    CHECK(in == r.size());
  }
  for (uint64_t i = 0; i < 100000; ++i) v.push_back(i);
  CHECK(v[99999] == 99999);
  flamefold::BigVector<uint64_t> empty;
  flamefold::BigPrefaultCapacity(&empty);  // nothing to do, no crash
  CHECK(empty.empty());
}

TEST_CASE("BigPrefault faults in at most 8 MiB of a larger block") {
  if (!KernelPopulates()) return;
  size_t n = size_t{12} << 20;
  char* p = static_cast<char*>(flamefold::BigAllocate(n));
  flamefold::BigPrefault(p, n, n);
  std::vector<unsigned char> r(n / 4096);
  REQUIRE(mincore(p, n, r.data()) == 0);
  size_t in = 0;
  for (unsigned char c : r) in += c & 1;
  CHECK(in == (size_t{8} << 20) / 4096);
  flamefold::BigFree(p, n);
}
