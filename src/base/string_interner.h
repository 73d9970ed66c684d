// StringInterner: every distinct string is stored once and named by a dense
// id, so the folding stages compare and hash frames as 32-bit numbers.
#ifndef FLAMEFOLD_BASE_STRING_INTERNER_H_
#define FLAMEFOLD_BASE_STRING_INTERNER_H_

#include <cstdint>
#include <string_view>

#include "base/arena.h"
#include "base/big_alloc.h"
#include "base/hash_table.h"

namespace flamefold {

using SymbolId = uint32_t;

/// Maps strings to dense ids 0, 1, 2, ... in order of first appearance.
class StringInterner {
 public:
  StringInterner() = default;
  /// Returns the id of `s`, adding it when new (then `*added` is true).
  SymbolId Intern(std::string_view s, bool* added = nullptr);
  /// Intern with `hash` = Hash(s). A caller that interns strings one after
  /// another, each while the next one is being read, can ask for their
  /// slot (Prefetch) and then their stored bytes (PrefetchBytes) to come
  /// into the cache ahead of the look-up.
  SymbolId Intern(std::string_view s, uint64_t hash, bool* added = nullptr);
  static uint64_t Hash(std::string_view s);
  void Prefetch(uint64_t hash) const { slots_.Prefetch(hash); }
  void PrefetchBytes(uint64_t hash) const;
  /// Returns the id of `s`, or kNone when absent.
  SymbolId Find(std::string_view s) const;
  std::string_view Get(SymbolId id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  size_t bytes_used() const {
    return arena_.bytes_used() + slots_.bytes_used() +
           strings_.size() * sizeof(std::string_view);
  }

  static constexpr SymbolId kNone = UINT32_MAX;

 private:
  // Each slot keeps the full hash and the string's address and size, so a
  // probe touches the slot and, on a hash match, the bytes: no detour
  // through strings_.
  struct Slot {
    uint64_t hash;
    const char* data;
    uint32_t size;
    uint32_t id_plus_1;  // 0: free
    bool empty() const { return id_plus_1 == 0; }
  };
  static bool Holds(const Slot& slot, uint64_t hash, std::string_view s);

  Arena arena_;
  BigVector<std::string_view> strings_;
  HashTable<Slot> slots_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_STRING_INTERNER_H_
