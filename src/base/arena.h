// Arena: a bump allocator for bytes that are freed all together.
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
  /// Room for `n` bytes, for the caller to fill: a key made of parts is
  /// copied in once, without a temporary string to join them first.
  char* Allocate(size_t n);
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

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_ARENA_H_
