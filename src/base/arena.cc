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

std::string_view Arena::Store(std::string_view s) {
  if (s.size() > left_) {
    // Blocks double from kFirstBlock to kBlock: a small arena (the names of
    // a short profile) takes little memory. A block that is mapped
    // (BigUsable) is used whole.
    size_t next = blocks_.empty() ? kFirstBlock
                                  : std::min(kBlock, 2 * blocks_.back().size);
    size_t size = BigUsable(std::max(next, s.size()));
    blocks_.push_back({static_cast<char*>(BigAllocate(size)), size});
    cur_ = blocks_.back().data;
    left_ = size;
  }
  char* p = cur_;
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  cur_ += s.size();
  left_ -= s.size();
  used_ += s.size();
  return std::string_view(p, s.size());
}

}  // namespace flamefold
