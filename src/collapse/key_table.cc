#include "collapse/key_table.h"

#include <string>

namespace flamefold {

KeyTable::KeyTable() : slots_(1024), mask_(1023) {}

uint32_t KeyTable::Add(const Key& key, uint64_t hash, size_t slot,
                       bool* added) {
  Slot s;
  s.hash = hash;
  s.a = static_cast<uint32_t>(key.a.size());
  s.b = static_cast<uint32_t>(key.b.size());
  s.c = static_cast<uint32_t>(key.c.size());
  std::string joined;
  joined.reserve(key.a.size() + key.b.size() + key.c.size());
  joined.append(key.a).append(key.b).append(key.c);
  s.data = arena_.Store(joined).data();
  s.id = count_++;
  slots_[slot] = s;
  if (static_cast<size_t>(count_) * 2 > slots_.size()) Grow();
  *added = true;
  return s.id;
}

void KeyTable::Grow() {
  BigVector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == UINT32_MAX) continue;
    size_t i = s.hash & mask_;
    while (slots_[i].id != UINT32_MAX) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

}  // namespace flamefold
