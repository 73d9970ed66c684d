#include "collapse/line_cache.h"

namespace flamefold {

LineCache::LineCache(size_t max_lines, size_t max_bytes)
    : slots_(1024), mask_(1023), max_lines_(max_lines),
      max_bytes_(max_bytes) {}

void LineCache::Insert(std::string_view line, uint32_t tag, uint32_t value) {
  if (line.size() < kKeyBytes || line.size() >= kMaxLength || tag > 1 ||
      line.back() != '\n' || count_ >= max_lines_ ||
      arena_.bytes_used() + line.size() > max_bytes_) {
    return;
  }
  uint32_t found;
  if (Find(line, tag, &found)) return;
  const uint64_t h = Hash(line.data(), tag);
  size_t i = h & mask_;
  while (slots_[i].data != nullptr) i = (i + 1) & mask_;
  Slot& s = slots_[i];
  s.data = arena_.Store(line).data();
  s.key = SlotKey(h, line.size(), tag);
  s.value = value;
  if (++count_ * 2 > slots_.size()) Grow();
}

void LineCache::Grow() {
  BigVector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.data == nullptr) continue;
    size_t i = Hash(s.data, s.key & 1) & mask_;
    while (slots_[i].data != nullptr) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

}  // namespace flamefold
