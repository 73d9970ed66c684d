// Maps: the mappings of one address space, as perf's replay keeps them.
#include "perfdata/thread_maps.h"

#include <doctest/doctest.h>

namespace flamefold {
namespace {

Map MapOf(uint64_t start, uint64_t end, Dso* dso, uint64_t pgoff = 0) {
  Map m;
  m.start = start;
  m.end = end;
  m.dso = dso;
  m.pgoff = pgoff;
  return m;
}

TEST_CASE("Maps finds the mapping that holds an address, none in a gap") {
  Dso prog, libc;
  Maps maps;
  maps.Insert(MapOf(0x1000, 0x3000, &prog, 0x100));
  maps.Insert(MapOf(0x8000, 0x9000, &libc));
  CHECK(maps.Find(0xfff) == nullptr);
  REQUIRE(maps.Find(0x1000) != nullptr);
  CHECK(maps.Find(0x1000)->dso == &prog);
  CHECK(maps.Find(0x2fff)->dso == &prog);
  CHECK(maps.Find(0x2fff)->MapIp(0x2fff) == 0x20ff);
  CHECK(maps.Find(0x3000) == nullptr);  // the end is not in it
  CHECK(maps.Find(0x8800)->dso == &libc);
  CHECK(maps.Find(0x9000) == nullptr);
}

// Find remembers its last two hits; frames that go back and forth between
// a program and a library take them, and a change forgets them (a hit kept
// past the change that freed its mapping is a use after free, which the
// AddressSanitizer run of this test reports).
TEST_CASE("Maps' remembered hits follow the mappings as they change") {
  Dso prog, libc, other;
  Maps maps;
  maps.Insert(MapOf(0x1000, 0x3000, &prog));
  maps.Insert(MapOf(0x8000, 0x9000, &libc));
  for (int i = 0; i < 3; ++i) {  // in turn, so both are remembered
    CHECK(maps.Find(0x1500)->dso == &prog);
    CHECK(maps.Find(0x8500)->dso == &libc);
  }
  CHECK(maps.Find(0x5000) == nullptr);  // a miss leaves them as they were
  CHECK(maps.Find(0x1500)->dso == &prog);
  CHECK(maps.Find(0x8500)->dso == &libc);  // prog's is now the older hit
  // A new mapping over part of prog's: the addresses it covers are its,
  // the rest stays prog's with its file offset moved on.
  maps.Insert(MapOf(0x2000, 0x2800, &other));
  CHECK(maps.Find(0x2100)->dso == &other);
  CHECK(maps.Find(0x1500)->dso == &prog);
  REQUIRE(maps.Find(0x2900) != nullptr);
  CHECK(maps.Find(0x2900)->dso == &prog);
  CHECK(maps.Find(0x2900)->start == 0x2800);
  CHECK(maps.Find(0x2900)->pgoff == 0x1800);
  CHECK(maps.Find(0x8500)->dso == &libc);
  // Moved bounds: the old range no longer finds it.
  maps.Resize(0x8000, 0xa000, 0xb000);
  CHECK(maps.Find(0x8500) == nullptr);
  CHECK(maps.Find(0xa500)->dso == &libc);
}

TEST_CASE("Maps counts its changes and finds each DSO's lowest start") {
  Dso prog, libc;
  Maps maps;
  maps.Insert(MapOf(0x5000, 0x6000, &prog));
  maps.Insert(MapOf(0x9000, 0xa000, &libc));
  const uint64_t v = maps.version();
  CHECK(maps.LowestStart(&prog) == 0x5000);
  maps.Insert(MapOf(0x1000, 0x2000, &prog));
  CHECK(maps.version() > v);
  CHECK(maps.LowestStart(&prog) == 0x1000);  // not the answer cached before
  CHECK(maps.LowestStart(&libc) == 0x9000);
  Dso none;
  CHECK(maps.LowestStart(&none) == 0);
  CHECK(maps.Any([&](const Map& m) { return m.dso == &libc; }));
  CHECK_FALSE(maps.Any([&](const Map& m) { return m.dso == &none; }));
}

TEST_CASE("a copy of Maps holds the mappings, not the remembered hits") {
  Dso prog;
  Maps maps;
  maps.Insert(MapOf(0x1000, 0x2000, &prog));
  CHECK(maps.Find(0x1800) != nullptr);
  Maps copy(maps);
  maps.Insert(MapOf(0x1000, 0x2000, nullptr));  // the original changes
  REQUIRE(copy.Find(0x1800) != nullptr);
  CHECK(copy.Find(0x1800)->dso == &prog);
  CHECK(copy.Find(0x1800) != maps.Find(0x1800));
}

}  // namespace
}  // namespace flamefold
