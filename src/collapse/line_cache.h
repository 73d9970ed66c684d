// LineCache: whole input lines seen before, recognised where they lie in the
// read buffer, without splitting them into lines or fields first.
//
// The caller frames of a perf script sample are return addresses, so the
// same stack line comes back byte for byte in every sample that passes
// through that call site:
//   \t    7f3a1d024422 pthread_mutex_lock+0x13e (/usr/lib/libc.so.6)
// Such a line is found by a hash of its first kKeyBytes bytes (white space,
// the address, the start of the symbol) and then compared whole, its '\n'
// included: a match is the same line, so whatever was worked out for it the
// first time holds again, and where it ends is known without looking for
// its '\n'. Nothing is trusted to the hash.
#ifndef FLAMEFOLD_COLLAPSE_LINE_CACHE_H_
#define FLAMEFOLD_COLLAPSE_LINE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/arena.h"
#include "base/hash_table.h"

namespace flamefold {

class LineCache {
 public:
  static constexpr size_t kKeyBytes = 32;

  /// Holds at most `max_lines` lines and `max_bytes` bytes of them; past
  /// that, Insert does nothing (lookups go on), so memory stays bounded
  /// whatever the input.
  static constexpr size_t kMaxLines = size_t{1} << 18;
  static constexpr size_t kMaxBytes = size_t{16} << 20;
  explicit LineCache(size_t max_lines = kMaxLines,
                     size_t max_bytes = kMaxBytes);
  LineCache(const LineCache&) = delete;
  LineCache& operator=(const LineCache&) = delete;

  /// Whether `line` (one whole line with its '\n', at least kKeyBytes
  /// long) is stored with tag `tag` (0 or 1); if so, sets `*value` to
  /// what was stored with it.
  bool Find(std::string_view line, uint32_t tag, uint32_t* value) const {
    size_t length;
    return FindAt(line.data(), line.size(), tag, Hash(line.data(), tag),
                  value, &length);
  }

  /// Hashes the line at `p` (its first kKeyBytes bytes, which must be
  /// there) and asks for the slot where its probe starts, so that it is
  /// on its way into the processor's cache while the line before is
  /// handled; FindAt takes the hash.
  uint64_t HashAhead(const char* p, uint32_t tag) const {
    const uint64_t h = Hash(p, tag);
    slots_.Prefetch(h);
    return h;
  }
  /// Whether a line stored with tag `tag` starts the `avail` (>=
  /// kKeyBytes) bytes at `p`; if so, sets `*value` to what was stored with
  /// it and `*length` to its length, '\n' included. The end of the line at
  /// `p` is not looked for: a stored line holds one '\n', at its end, so a
  /// stored line that the bytes at `p` start with is the line there.
  bool FindAt(const char* p, size_t avail, uint32_t tag, uint64_t hash,
              uint32_t* value, size_t* length) const {
    const uint64_t key = SlotKey(hash, tag);
    const Slot* s = slots_.Find(hash, [&](const Slot& x) {
      return x.key == key && x.length <= avail &&
             SameBytes(p, x.data, x.length);
    });
    if (s == nullptr) return false;
    *value = s->value;
    *length = s->length;
    return true;
  }

  /// Stores `line`, which ends in '\n' and is at least kKeyBytes long, with
  /// `tag` (0 or 1) and `value`, unless the cache is full or holds it
  /// already.
  void Insert(std::string_view line, uint32_t tag, uint32_t value);

  size_t size() const { return slots_.size(); }
  /// Lowers the limits to a `parts`-th share of the defaults (parsers
  /// that each keep a cache split the memory one would take); lines
  /// stored already stay.
  void Share(size_t parts) {
    if (parts < 2) return;
    max_lines_ = kMaxLines / parts;
    max_bytes_ = kMaxBytes / parts;
  }

 private:
  struct Slot {
    const char* data;  // nullptr: free
    uint64_t key;      // SlotKey
    uint32_t length;   // of the line, '\n' included
    uint32_t value;
    bool empty() const { return data == nullptr; }
  };
  static constexpr size_t kMaxLength = size_t{1} << 30;  // longer: not stored
  /// The hash's high half and the tag (< 2), compared at once.
  static uint64_t SlotKey(uint64_t hash, uint32_t tag) {
    return (hash & 0xFFFFFFFF00000000ull) | (tag & 1);
  }

  static uint64_t Hash(const char* p, uint32_t tag);
  /// The `n` (>= 16) bytes at `x` and `y` are equal.
  static bool SameBytes(const char* x, const char* y, size_t n);

  Arena arena_;
  HashTable<Slot> slots_;
  size_t max_lines_;
  size_t max_bytes_;
};


inline uint64_t LineCache::Hash(const char* p, uint32_t tag) {
  uint64_t a, b, c, d;
  std::memcpy(&a, p, 8);
  std::memcpy(&b, p + 8, 8);
  std::memcpy(&c, p + 16, 8);
  std::memcpy(&d, p + 24, 8);
  auto mix = [](uint64_t x, uint64_t y) {
    __uint128_t r = static_cast<__uint128_t>(x) * y;
    return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
  };
  return mix(a ^ 0xa0761d6478bd642full ^ tag, b ^ 0xe7037ed1a0b428dbull) ^
         mix(c ^ 0x8ebc6af09c88c6e3ull, d ^ 0x589965cc75374cc3ull);
}

inline bool LineCache::SameBytes(const char* x, const char* y, size_t n) {
#if defined(__SSE2__)
  // 16 bytes at a time, the last 16 overlapping; differences are gathered
  // without a branch per block (lines are a few blocks long).
  auto load = [](const char* q) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
  };
  __m128i diff = _mm_xor_si128(load(x + n - 16), load(y + n - 16));
  for (size_t i = 0; i + 16 < n; i += 16) {
    diff = _mm_or_si128(diff, _mm_xor_si128(load(x + i), load(y + i)));
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi8(diff, _mm_setzero_si128())) == 0xFFFF;
#else
  return std::memcmp(x, y, n) == 0;
#endif
}

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_LINE_CACHE_H_
