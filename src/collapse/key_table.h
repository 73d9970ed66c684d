// KeyTable: dense ids for keys made of a tag byte and up to three byte
// strings, hashed and compared where they lie (in an input line, say), so
// that a look-up assembles no key. For the per-line caches of the parsers,
// where building a key string costs as much as the look-up itself.
#ifndef FLAMEFOLD_COLLAPSE_KEY_TABLE_H_
#define FLAMEFOLD_COLLAPSE_KEY_TABLE_H_

#include <cstdint>
#include <cstring>
#include <string_view>

#include "base/arena.h"
#include "base/hash.h"
#include "base/hash_table.h"

namespace flamefold {

class KeyTable {
 public:
  struct Key {
    uint8_t tag = 0;
    std::string_view a, b, c;
  };
  KeyTable() = default;

  /// The id of `key` (0, 1, 2, ... in order of first appearance), adding it
  /// when new (then `*added` is true). Parts compare as byte strings; keys
  /// with equal parts but a different split ("ab"+"c", "a"+"bc") differ.
  uint32_t Intern(const Key& key, bool* added) {
    return Intern(key, Hash(key), added);
  }
  /// Intern, for a key whose Hash is `h`: a caller that hashed the key
  /// ahead (to Prefetch its slot) does not hash it again.
  uint32_t Intern(const Key& key, uint64_t h, bool* added) {
    Slot* s = slots_.FindOrFree(
        h, [&](const Slot& x) { return x.hash == h && Equal(x, key); });
    *added = s->empty();
    return s->empty() ? Add(key, h, s) : s->id_plus_1 - 1;
  }
  size_t size() const { return slots_.size(); }
  /// Fetches the home slot of the key whose Hash is `h` into the CPU's
  /// cache, ahead of its Intern.
  void Prefetch(uint64_t h) const { slots_.Prefetch(h); }
  /// Once the home slot is in the cache (Prefetch), fetches the stored key
  /// it holds if that key's hash is `h`: what Intern compares next.
  void PrefetchKey(uint64_t h) const {
    const Slot& s = slots_.Home(h);
    if (s.hash == h && !s.empty()) __builtin_prefetch(s.data);
  }

  /// The first part (a symbol) is hashed whole; the others (a module path,
  /// an address) by their length and first and last 8 bytes, which tell
  /// apart the paths of one profile at a fraction of the cost. Keys that
  /// share those still compare whole: only the probe gets longer.
  static uint64_t Hash(const Key& key) {
    uint64_t h = HashBytes(key.a, key.tag);
    return Mix64(h ^ Sample(key.b), Sample(key.c) ^ 0x9e3779b97f4a7c15ull);
  }

 private:
  struct Slot {
    uint64_t hash;
    const char* data;  // a, b and c, one after another
    uint32_t a, b, c;
    uint32_t id_plus_1;  // 0: free
    bool empty() const { return id_plus_1 == 0; }
  };

  static uint64_t Sample(std::string_view s) {
    if (s.size() < 8) return HashBytes(s, 1);
    uint64_t x, y;
    std::memcpy(&x, s.data(), 8);
    std::memcpy(&y, s.data() + s.size() - 8, 8);
    return Mix64(x ^ s.size(), y ^ 0xe7037ed1a0b428dbull);
  }
  /// `n` bytes at `x` and `y` are equal; 8 at a time, the last 8 overlapping.
  static bool SameBytes(const char* x, const char* y, size_t n) {
    if (n < 8) return n == 0 || std::memcmp(x, y, n) == 0;
    for (size_t i = 0; i + 8 < n; i += 8) {
      uint64_t u, v;
      std::memcpy(&u, x + i, 8);
      std::memcpy(&v, y + i, 8);
      if (u != v) return false;
    }
    uint64_t u, v;
    std::memcpy(&u, x + n - 8, 8);
    std::memcpy(&v, y + n - 8, 8);
    return u == v;
  }
  static bool Equal(const Slot& s, const Key& key) {
    return s.a == key.a.size() && s.b == key.b.size() && s.c == key.c.size() &&
           SameBytes(s.data, key.a.data(), s.a) &&
           SameBytes(s.data + s.a, key.b.data(), s.b) &&
           SameBytes(s.data + s.a + s.b, key.c.data(), s.c);
  }
  /// Stores `key` in the free slot `slot` and returns its new id.
  uint32_t Add(const Key& key, uint64_t hash, Slot* slot);

  Arena arena_;
  HashTable<Slot> slots_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_KEY_TABLE_H_
