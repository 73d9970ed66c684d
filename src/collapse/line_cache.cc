#include "collapse/line_cache.h"

namespace flamefold {

LineCache::LineCache(size_t max_lines, size_t max_bytes)
    : max_lines_(max_lines),
      max_bytes_(max_bytes) {}

void LineCache::Insert(std::string_view line, uint32_t tag, uint32_t value) {
  if (line.size() < kKeyBytes || line.size() >= kMaxLength || tag > 1 ||
      line.back() != '\n' || slots_.size() >= max_lines_ ||
      arena_.bytes_used() + line.size() > max_bytes_) {
    return;
  }
  uint32_t found;
  if (Find(line, tag, &found)) return;
  const uint64_t h = Hash(line.data(), tag);
  *slots_.FreeSlot(h) = {arena_.Store(line).data(), SlotKey(h, tag),
                         static_cast<uint32_t>(line.size()), value};
  slots_.Added([](const Slot& s) { return Hash(s.data, s.key & 1); });
}

}  // namespace flamefold
