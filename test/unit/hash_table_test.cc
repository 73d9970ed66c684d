// HashTable: what every user of the one open-addressing table relies on.
// A key put in is found again after any number of doublings; an absent key
// is reported absent; colliding hashes are told apart by the caller's
// match; a table starts with room for the keys asked for; Reset empties it
// and Release frees it.
#include <doctest/doctest.h>

#include <cstdint>
#include <unordered_map>

#include "base/hash.h"
#include "base/hash_table.h"

namespace {

struct IntSlot {
  uint64_t key;
  uint32_t value_plus_1;  // 0: free
  bool empty() const { return value_plus_1 == 0; }
};

using Table = flamefold::HashTable<IntSlot>;

uint64_t SlotHash(const IntSlot& s) { return flamefold::HashU64(s.key); }

// Every key's hash is 42: the probe runs through them all, and the
// caller's match decides.
uint64_t Colliding(const IntSlot&) { return 42; }

// Adds `key` with `value` unless present (placed by `hash`, which must be
// slot_hash of the slot); returns the value stored for it.
template <typename SlotHashFn = uint64_t (*)(const IntSlot&)>
uint32_t Put(Table* t, uint64_t key, uint32_t value, uint64_t hash,
             SlotHashFn slot_hash = SlotHash) {
  IntSlot* s = t->FindOrFree(hash, [key](const IntSlot& x) { return x.key == key; });
  if (!s->empty()) return s->value_plus_1 - 1;
  *s = {key, value + 1};
  t->Added(slot_hash);
  return value;
}

const IntSlot* Get(const Table& t, uint64_t key, uint64_t hash) {
  return t.Find(hash, [key](const IntSlot& x) { return x.key == key; });
}

}  // namespace

TEST_CASE("HashTable finds every key again across many doublings") {
  Table t(4);
  std::unordered_map<uint64_t, uint32_t> want;
  for (uint32_t i = 0; i < 200000; ++i) {
    uint64_t key = uint64_t{i} * 0x9e3779b97f4a7c15ull;
    want[key] = i;
    CHECK_EQ(Put(&t, key, i, flamefold::HashU64(key)), i);
  }
  CHECK(t.size() == want.size());
  CHECK(t.capacity() >= 2 * t.size());
  CHECK((t.capacity() & (t.capacity() - 1)) == 0);
  bool all = true;
  for (const auto& [key, value] : want) {
    const IntSlot* s = Get(t, key, flamefold::HashU64(key));
    all = all && s != nullptr && s->value_plus_1 - 1 == value;
  }
  CHECK(all);
  CHECK(Get(t, 12345, flamefold::HashU64(12345)) == nullptr);
  // A key already present keeps its first value and its count.
  uint64_t key0 = 0;
  CHECK(Put(&t, key0, 7, flamefold::HashU64(key0)) == 0u);
  CHECK(t.size() == want.size());
}

TEST_CASE("HashTable tells apart keys whose hashes collide") {
  Table t;
  for (uint32_t i = 0; i < 3000; ++i) Put(&t, 1000 + i, i, 42, Colliding);
  bool all = true;
  for (uint32_t i = 0; i < 3000; ++i) {
    const IntSlot* s = Get(t, 1000 + i, 42);
    all = all && s != nullptr && s->value_plus_1 - 1 == i;
  }
  CHECK(all);
  CHECK(Get(t, 999, 42) == nullptr);
  CHECK(t.size() == 3000u);
}

TEST_CASE("HashTable holds the keys asked for before it grows") {
  Table t(1000);
  const size_t capacity = t.capacity();
  CHECK(capacity >= 2000u);
  for (uint32_t i = 0; i < 1000; ++i) Put(&t, i, i, flamefold::HashU64(i));
  CHECK(t.capacity() == capacity);
  Put(&t, 5000, 0, flamefold::HashU64(5000));
  Put(&t, 5001, 0, flamefold::HashU64(5001));
  CHECK(t.size() == 1002u);
  CHECK(t.bytes_used() == t.capacity() * sizeof(IntSlot));
}

TEST_CASE("HashTable FreeSlot places a new key where Find looks") {
  Table t(4);
  for (uint64_t k = 1; k <= 100; ++k) {
    *t.FreeSlot(flamefold::HashU64(k)) = IntSlot{k, static_cast<uint32_t>(k)};
    t.Added(SlotHash);
  }
  int found = 0;
  for (uint64_t k = 1; k <= 100; ++k) {
    const IntSlot* s = Get(t, k, flamefold::HashU64(k));
    found += s != nullptr && s->value_plus_1 == k;
  }
  CHECK(found == 100);
  CHECK(t.capacity() == 256u);
  // The probe wraps around: Home takes the hash modulo the capacity.
  CHECK(&t.Home(3) == &t.Home(3 + t.capacity()));
}

TEST_CASE("HashTable Reset empties it; Release frees it; moves carry it") {
  Table t;
  for (uint32_t i = 0; i < 5000; ++i) Put(&t, i, i, flamefold::HashU64(i));
  Table moved(std::move(t));
  CHECK(moved.size() == 5000u);
  CHECK(t.capacity() == 0u);
  CHECK(Get(moved, 4999, flamefold::HashU64(4999)) != nullptr);
  moved.Reset(10);
  CHECK(moved.size() == 0u);
  CHECK(moved.capacity() == 32u);
  CHECK(Get(moved, 4999, flamefold::HashU64(4999)) == nullptr);
  moved.Release();
  CHECK(moved.capacity() == 0u);
  CHECK(moved.bytes_used() == 0u);
  moved.Reset(0);
  CHECK(moved.capacity() == 16u);
  CHECK(Put(&moved, 1, 1, flamefold::HashU64(1)) == 1u);
}
