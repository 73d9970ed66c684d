// NameStore: the bytes of the names of a symbol table, stored together.
//
// A big binary or the kernel has some 100,000 symbols: one heap string each
// would cost as much in malloc, page faults and frees as reading them.
// Here names are views into a few shared blocks, which tables that take
// each other's symbols (kallsyms modules, PLT entries) keep alive together.
// Blocks of 2 MiB and more are mapped directly (BigAllocate), and only the
// pages written are faulted in.
#ifndef FLAMEFOLD_SYMBOLS_NAME_STORE_H_
#define FLAMEFOLD_SYMBOLS_NAME_STORE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace flamefold {

class NameStore {
 public:
  NameStore() = default;
  NameStore(const NameStore&) = delete;  // two stores would fill one block
  NameStore& operator=(const NameStore&) = delete;
  NameStore(NameStore&& o) noexcept { *this = std::move(o); }
  NameStore& operator=(NameStore&& o) noexcept;

  /// Copies `s`; the view stays valid as long as this store or one that
  /// shares it (Share) lives, moves included.
  std::string_view Copy(std::string_view s);
  /// Makes the next block hold at least `bytes`, so that the names of one
  /// section go into one block.
  void Reserve(size_t bytes);
  /// A block of `bytes` uninitialized bytes of its own, to read names into
  /// in place; valid as Copy's views are.
  char* Allocate(size_t bytes);
  /// Keeps `block` (bytes that names view, such as a mapped file) alive as
  /// long as this store or one that shares it.
  void Keep(std::shared_ptr<const void> block) {
    blocks_.push_back(std::move(block));
  }
  /// Keeps the blocks of `other` alive as long as this store too.
  void Share(const NameStore& other);

 private:
  static constexpr size_t kMinBlock = 4096, kMaxBlock = 1u << 20;
  std::vector<std::shared_ptr<const void>> blocks_;
  char* cur_ = nullptr;
  size_t left_ = 0;
  size_t next_block_ = kMinBlock;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_NAME_STORE_H_
