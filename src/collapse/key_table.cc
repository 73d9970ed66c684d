#include "collapse/key_table.h"

#include <string>

namespace flamefold {

uint32_t KeyTable::Add(const Key& key, uint64_t hash, Slot* slot) {
  std::string joined;
  joined.reserve(key.a.size() + key.b.size() + key.c.size());
  joined.append(key.a).append(key.b).append(key.c);
  const uint32_t id = static_cast<uint32_t>(slots_.size());
  *slot = {hash,
           arena_.Store(joined).data(),
           static_cast<uint32_t>(key.a.size()),
           static_cast<uint32_t>(key.b.size()),
           static_cast<uint32_t>(key.c.size()),
           id + 1};
  slots_.Added([](const Slot& s) { return s.hash; });
  return id;
}

}  // namespace flamefold
