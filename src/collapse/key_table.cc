#include "collapse/key_table.h"

#include <cstring>

namespace flamefold {

uint32_t KeyTable::Add(const Key& key, uint64_t hash, Slot* slot) {
  char* data = arena_.Allocate(key.a.size() + key.b.size() + key.c.size());
  char* at = data;
  for (std::string_view part : {key.a, key.b, key.c}) {
    if (!part.empty()) std::memcpy(at, part.data(), part.size());
    at += part.size();
  }
  const uint32_t id = static_cast<uint32_t>(slots_.size());
  *slot = {hash,
           data,
           static_cast<uint32_t>(key.a.size()),
           static_cast<uint32_t>(key.b.size()),
           static_cast<uint32_t>(key.c.size()),
           id + 1};
  slots_.Added([](const Slot& s) { return s.hash; });
  return id;
}

}  // namespace flamefold
