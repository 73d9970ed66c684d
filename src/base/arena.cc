#include "base/arena.h"

#include <cstring>

#include "base/hash.h"

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
    // a short profile) faults in a few small pages, not a 2 MiB huge page.
    // A block that is mapped (BigUsable) is used whole.
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

StringInterner::StringInterner() : slots_(1024), mask_(1023) {}

// Each slot keeps the full hash and the string's address and size, so a
// probe touches the slot and, on a hash match, the bytes: no detour through
// strings_.
SymbolId StringInterner::Find(std::string_view s) const {
  uint64_t h = HashBytes(s);
  for (size_t i = h & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kNone) return kNone;
    // An empty name may be stored with no bytes at all (a null pointer),
    // which memcmp must not be given even for a length of 0.
    if (slot.hash == h && slot.size == s.size() &&
        (s.empty() || std::memcmp(slot.data, s.data(), s.size()) == 0)) {
      return slot.id;
    }
  }
}

SymbolId StringInterner::Intern(std::string_view s, bool* added) {
  uint64_t h = HashBytes(s);
  size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kNone) break;
    // An empty name may be stored with no bytes at all (a null pointer),
    // which memcmp must not be given even for a length of 0.
    if (slot.hash == h && slot.size == s.size() &&
        (s.empty() || std::memcmp(slot.data, s.data(), s.size()) == 0)) {
      if (added) *added = false;
      return slot.id;
    }
  }
  SymbolId id = static_cast<SymbolId>(strings_.size());
  std::string_view stored = arena_.Store(s);
  strings_.push_back(stored);
  slots_[i] = {h, stored.data(), static_cast<uint32_t>(s.size()), id};
  if (strings_.size() * 2 > slots_.size()) Grow();
  if (added) *added = true;
  return id;
}

void StringInterner::Grow() {
  BigVector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id == kNone) continue;
    size_t i = slot.hash & mask_;
    while (slots_[i].id != kNone) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

}  // namespace flamefold
