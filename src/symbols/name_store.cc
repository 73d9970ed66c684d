#include "symbols/name_store.h"

#include <algorithm>
#include <cstring>

#include "base/big_alloc.h"

namespace flamefold {

NameStore& NameStore::operator=(NameStore&& o) noexcept {
  if (this != &o) {
    blocks_ = std::move(o.blocks_);
    cur_ = o.cur_;
    left_ = o.left_;
    next_block_ = o.next_block_;
    o.blocks_.clear();
    o.cur_ = nullptr;
    o.left_ = 0;
    o.next_block_ = kMinBlock;
  }
  return *this;
}

char* NameStore::Allocate(size_t bytes) {
  char* p = static_cast<char*>(BigAllocate(bytes));
  // Names are copied in order: a block is filled up but for its end, or
  // for the names of symbols not kept when its size was Reserve()d.
  BigPrefault(p, bytes, bytes);
  blocks_.push_back(
      std::shared_ptr<const void>(p, [bytes](const void* q) {
        BigFree(const_cast<void*>(q), bytes);
      }));
  return p;
}

std::string_view NameStore::Copy(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > left_) {
    size_t size = std::max(next_block_, s.size());
    cur_ = Allocate(size);
    left_ = size;
    next_block_ = std::min(kMaxBlock, size * 2);
  }
  char* p = cur_;
  std::memcpy(p, s.data(), s.size());
  cur_ += s.size();
  left_ -= s.size();
  return {p, s.size()};
}

void NameStore::Reserve(size_t bytes) {
  if (bytes > left_) next_block_ = std::max(next_block_, bytes);
}

void NameStore::Share(const NameStore& other) {
  if (&other == this) return;
  blocks_.insert(blocks_.end(), other.blocks_.begin(), other.blocks_.end());
}

}  // namespace flamefold
