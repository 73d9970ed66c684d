#include "base/arena.h"

#include <cstring>


namespace flamefold {

Arena::~Arena() {
  for (const Block& b : blocks_) BigFree(b.data, b.size);
}

Arena& Arena::operator=(Arena&& o) noexcept {
  if (this != &o) {
    for (const Block& b : blocks_) BigFree(b.data, b.size);
    blocks_ = std::move(o.blocks_);
    cur_ = o.cur_;
    left_ = o.left_;
    used_ = o.used_;
    o.blocks_.clear();
    o.cur_ = nullptr;
    o.left_ = o.used_ = 0;
  }
  return *this;
}

char* Arena::Allocate(size_t n) {
  if (n > left_) {
    // Blocks double from kFirstBlock to kBlock: a small arena (the names of
    // a short profile) takes little memory. A block that is mapped
    // (BigUsable) is used whole.
    size_t next = blocks_.empty() ? kFirstBlock
                                  : std::min(kBlock, 2 * blocks_.back().size);
    size_t size = BigUsable(std::max(next, n));
    blocks_.push_back({static_cast<char*>(BigAllocate(size)), size});
    cur_ = blocks_.back().data;
    left_ = size;
  }
  char* p = cur_;
  cur_ += n;
  left_ -= n;
  used_ += n;
  return p;
}

std::string_view Arena::Store(std::string_view s) {
  char* p = Allocate(s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return std::string_view(p, s.size());
}

}  // namespace flamefold
