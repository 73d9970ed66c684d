// HashTable: the one open-addressing table behind the string interner and
// the folding stages' caches and counts.
//
// The table stores slots of the caller's type; what a slot holds (a key, a
// hash, an index into the caller's own arrays) and how two keys compare is
// the caller's business, so each user keeps its compact slot and its own
// equality test (bytes where they lie, ids, tags). The table owns what every
// user would otherwise write itself: a power-of-two array, linear probing
// from the hash's low bits, growth by doubling when more than half full, and
// the memory that array lives in.
//
// A slot whose bytes are all zero is free, and `slot.empty()` must say so.
// The array comes from BigAllocateZeroed: a large one is mapped from the
// kernel already zero and faulted in at once, since a table at least a
// quarter full has keys in every page.
#ifndef FLAMEFOLD_BASE_HASH_TABLE_H_
#define FLAMEFOLD_BASE_HASH_TABLE_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "base/big_alloc.h"

namespace flamefold {

template <typename Slot>
class HashTable {
  static_assert(std::is_trivially_copyable_v<Slot>);

 public:
  /// A table that holds `keys` keys before it first grows.
  explicit HashTable(size_t keys = 512) { Allocate(SlotsFor(keys)); }
  ~HashTable() { BigFree(slots_, capacity() * sizeof(Slot)); }
  HashTable(const HashTable&) = delete;
  HashTable& operator=(const HashTable&) = delete;
  HashTable(HashTable&& o) noexcept { *this = std::move(o); }
  HashTable& operator=(HashTable&& o) noexcept {
    if (this != &o) {
      BigFree(slots_, capacity() * sizeof(Slot));
      slots_ = std::exchange(o.slots_, nullptr);
      mask_ = std::exchange(o.mask_, 0);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }

  /// The number of filled slots.
  size_t size() const { return count_; }
  /// The number of slots (0 after Release).
  size_t capacity() const { return slots_ == nullptr ? 0 : mask_ + 1; }
  size_t bytes_used() const { return capacity() * sizeof(Slot); }

  /// The slot where the probe for `hash` starts: for prefetching.
  const Slot& Home(uint64_t hash) const { return slots_[hash & mask_]; }
  /// Asks for Home(hash) to come into the processor's cache while other
  /// work goes on, ahead of a probe for `hash`.
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&Home(hash)); }

  /// The first slot along the probe for `hash` that `match(slot)` accepts,
  /// or nullptr when a free slot comes first (the key is absent).
  template <typename Match>
  const Slot* Find(uint64_t hash, Match&& match) const {
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.empty()) return nullptr;
      if (match(s)) return &s;
    }
  }

  /// The slot `match` accepts, or else the free slot where a key with
  /// `hash` belongs (then `slot->empty()`). A caller that fills that free
  /// slot calls Added next.
  template <typename Match>
  Slot* FindOrFree(uint64_t hash, Match&& match) {
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.empty() || match(s)) return &s;
    }
  }

  /// The free slot where a key with `hash` belongs, for a key the caller
  /// knows is absent. Fill it, then call Added.
  Slot* FreeSlot(uint64_t hash) {
    size_t i = hash & mask_;
    while (!slots_[i].empty()) i = (i + 1) & mask_;
    return &slots_[i];
  }

  /// Counts the slot just filled. When more than half the slots are full
  /// the table doubles, placing each slot by `slot_hash(slot)` (the hash it
  /// was placed by); pointers to slots are then invalid.
  template <typename SlotHash>
  void Added(SlotHash&& slot_hash) {
    if (++count_ * 2 > capacity()) Rehash(2 * capacity(), slot_hash);
  }

  /// Empties the table and makes room for `keys` keys before it grows.
  void Reset(size_t keys) {
    BigFree(slots_, capacity() * sizeof(Slot));
    slots_ = nullptr;
    count_ = 0;
    Allocate(SlotsFor(keys));
  }
  /// Frees the slots: until the next Reset the table holds nothing and
  /// must not be probed (a caller that rebuilds it later from its own data
  /// gives the memory back in between).
  void Release() {
    BigFree(slots_, capacity() * sizeof(Slot));
    slots_ = nullptr;
    mask_ = 0;
    count_ = 0;
  }

 private:
  /// Slots for `keys` keys at most half full: a power of two, at least 16.
  static size_t SlotsFor(size_t keys) {
    return std::bit_ceil(keys < 8 ? size_t{16} : 2 * keys);
  }
  void Allocate(size_t slots) {
    slots_ = static_cast<Slot*>(BigAllocateZeroed(slots * sizeof(Slot)));
    mask_ = slots - 1;
  }
  template <typename SlotHash>
  void Rehash(size_t slots, SlotHash& slot_hash) {
    Slot* old = slots_;
    const size_t old_capacity = capacity();
    Allocate(slots);
    for (size_t j = 0; j < old_capacity; ++j) {
      if (!old[j].empty()) *FreeSlot(slot_hash(old[j])) = old[j];
    }
    BigFree(old, old_capacity * sizeof(Slot));
  }

  Slot* slots_ = nullptr;
  size_t mask_ = 0;
  size_t count_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_HASH_TABLE_H_
