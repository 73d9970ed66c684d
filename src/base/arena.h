// Arena and StringInterner: every distinct string is stored once.
#ifndef FLAMEFOLD_BASE_ARENA_H_
#define FLAMEFOLD_BASE_ARENA_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"

namespace flamefold {

/// Bump allocator for bytes. Memory is freed all at once with the arena;
/// pointers stay valid until then.
class Arena {
 public:
  Arena() = default;
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&& o) noexcept { *this = std::move(o); }
  Arena& operator=(Arena&& o) noexcept;
  /// Copies `s` into the arena and returns a view of the copy.
  std::string_view Store(std::string_view s);
  size_t bytes_used() const { return used_; }

 private:
  static constexpr size_t kFirstBlock = 64u << 10;
  static constexpr size_t kBlock = 4u << 20;
  struct Block {
    char* data;
    size_t size;
  };
  std::vector<Block> blocks_;
  char* cur_ = nullptr;
  size_t left_ = 0;
  size_t used_ = 0;
};

using SymbolId = uint32_t;

/// Maps strings to dense ids 0, 1, 2, ... in order of first appearance.
class StringInterner {
 public:
  StringInterner();
  /// Returns the id of `s`, adding it when new (then `*added` is true).
  SymbolId Intern(std::string_view s, bool* added = nullptr);
  /// Returns the id of `s`, or kNone when absent.
  SymbolId Find(std::string_view s) const;
  std::string_view Get(SymbolId id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  size_t bytes_used() const {
    return arena_.bytes_used() + slots_.size() * sizeof(Slot) +
           strings_.size() * sizeof(std::string_view);
  }

  static constexpr SymbolId kNone = UINT32_MAX;

 private:
  struct Slot {
    uint64_t hash = 0;
    const char* data = nullptr;
    uint32_t size = 0;
    uint32_t id = kNone;
  };
  void Grow();

  Arena arena_;
  BigVector<std::string_view> strings_;
  BigVector<Slot> slots_;
  size_t mask_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_ARENA_H_
