// KeyTable: dense ids in order of first appearance, for keys compared
// whole, part by part, whatever their hash samples.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "collapse/key_table.h"

using flamefold::KeyTable;

namespace {
KeyTable::Key MakeKey(uint8_t tag, std::string_view a, std::string_view b,
                      std::string_view c = {}) {
  KeyTable::Key k;
  k.tag = tag;
  k.a = a;
  k.b = b;
  k.c = c;
  return k;
}

uint32_t Intern(KeyTable* t, const KeyTable::Key& k, bool expect_added) {
  bool added = !expect_added;
  uint32_t id = t->Intern(k, &added);
  CHECK(added == expect_added);
  return id;
}
}  // namespace

TEST_CASE("ids are 0, 1, 2... in order of first appearance") {
  KeyTable t;
  CHECK(Intern(&t, MakeKey('-', "main", "/usr/bin/app"), true) == 0);
  CHECK(Intern(&t, MakeKey('-', "helper", "/usr/bin/app"), true) == 1);
  CHECK(Intern(&t, MakeKey('-', "main", "/usr/bin/app"), false) == 0);
  CHECK(Intern(&t, MakeKey('-', "memcpy", "/lib/libc.so.6"), true) == 2);
  CHECK(Intern(&t, MakeKey('-', "helper", "/usr/bin/app"), false) == 1);
  CHECK(t.size() == 3);
}

TEST_CASE("the tag, each part and where the parts split tell keys apart") {
  KeyTable t;
  const uint32_t base = Intern(&t, MakeKey('-', "ab", "c"), true);
  CHECK(Intern(&t, MakeKey('j', "ab", "c"), true) != base);  // java or not
  CHECK(Intern(&t, MakeKey('-', "a", "bc"), true) != base);  // another split
  CHECK(Intern(&t, MakeKey('-', "abc", ""), true) != base);
  CHECK(Intern(&t, MakeKey('-', "ab", "", "c"), true) != base);
  CHECK(Intern(&t, MakeKey('-', "ab", "c", "0x1"), true) != base);  // --addrs
  CHECK(Intern(&t, MakeKey('-', "", ""), true) == 6);  // all empty is a key
  CHECK(Intern(&t, MakeKey('-', "", ""), false) == 6);
  CHECK(Intern(&t, MakeKey('-', "ab", "c"), false) == base);
  CHECK(t.size() == 7);
}

TEST_CASE("module paths alike at both ends still differ in the middle") {
  // The hash samples a path's length and its first and last 8 bytes, so
  // these share a hash; only the whole comparison tells them apart.
  KeyTable t;
  const std::string p1 = "/usr/lib/x86_64-linux-gnu/libfoo-1.2.so.6";
  const std::string p2 = "/usr/lib/x86_64-linux-gnu/libbar-1.2.so.6";
  REQUIRE(p1.size() == p2.size());
  const uint32_t a = Intern(&t, MakeKey('-', "f", p1), true);
  const uint32_t b = Intern(&t, MakeKey('-', "f", p2), true);
  CHECK(a != b);
  CHECK(Intern(&t, MakeKey('-', "f", p1), false) == a);
  CHECK(Intern(&t, MakeKey('-', "f", p2), false) == b);
  // A difference in any one byte of any part, at any length.
  for (size_t n = 1; n <= 40; ++n) {
    for (size_t at : {size_t{0}, n / 2, n - 1}) {
      std::string s(n, 'x'), d = s;
      d[at] = 'y';
      uint32_t ids[3][2];
      for (int part = 0; part < 3; ++part) {
        std::string_view parts[2][3] = {{"k", "m", "c"}, {"k", "m", "c"}};
        parts[0][part] = s;
        parts[1][part] = d;
        for (int v = 0; v < 2; ++v) {
          bool added = false;
          ids[part][v] = t.Intern(
              MakeKey('-', parts[v][0], parts[v][1], parts[v][2]), &added);
        }
        CHECK(ids[part][0] != ids[part][1]);
      }
    }
  }
}

TEST_CASE("ids hold as the table grows, against a map") {
  KeyTable t;
  std::map<std::tuple<uint8_t, std::string, std::string, std::string>,
           uint32_t>
      want;
  std::mt19937 rng(7);
  auto text = [&](size_t max) {
    std::string s(rng() % (max + 1), ' ');
    for (char& ch : s) ch = static_cast<char>('a' + rng() % 3);  // collide
    return s;
  };
  std::vector<std::tuple<uint8_t, std::string, std::string, std::string>> keys;
  for (int i = 0; i < 60000; ++i) {
    keys.emplace_back(rng() % 2 ? 'j' : '-', text(12), text(20), text(3));
  }
  for (int round = 0; round < 2; ++round) {
    for (const auto& k : keys) {
      bool added = false;
      uint32_t id = t.Intern(MakeKey(std::get<0>(k), std::get<1>(k),
                                     std::get<2>(k), std::get<3>(k)),
                             &added);
      auto [it, fresh] = want.emplace(k, static_cast<uint32_t>(want.size()));
      CHECK(added == fresh);
      if (id != it->second) {
        FAIL("key id " << id << " where the map has " << it->second);
      }
    }
  }
  CHECK(t.size() == want.size());
}

TEST_CASE("keys hashed ahead and prefetched get the ids Intern gives") {
  // FastStackLine hashes a line's key ahead (Hash), fetches its slot and
  // stored key (Prefetch, PrefetchKey), then interns it with that hash.
  KeyTable direct, ahead;
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) names.push_back("fn" + std::to_string(i % 1200));
  for (size_t i = 0; i < names.size(); ++i) {
    KeyTable::Key k =
        MakeKey(i / 1200 % 2 ? 'j' : '-', names[i], "/usr/lib/libc.so.6");
    bool added_direct = false, added_ahead = false;
    uint32_t want = direct.Intern(k, &added_direct);
    const uint64_t h = KeyTable::Hash(k);
    ahead.Prefetch(h);
    ahead.PrefetchKey(h);
    CHECK(ahead.Intern(k, h, &added_ahead) == want);
    CHECK(added_ahead == added_direct);
  }
  CHECK(ahead.size() == direct.size());
  CHECK(ahead.size() == 2400);  // 1,200 names under each of two tags
}
