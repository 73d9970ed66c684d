#include "base/string_interner.h"

#include <cstring>

#include "base/hash.h"

namespace flamefold {

bool StringInterner::Holds(const Slot& slot, uint64_t hash,
                           std::string_view s) {
  // An empty name may be stored with no bytes at all (a null pointer),
  // which memcmp must not be given even for a length of 0.
  return slot.hash == hash && slot.size == s.size() &&
         (s.empty() || std::memcmp(slot.data, s.data(), s.size()) == 0);
}

SymbolId StringInterner::Find(std::string_view s) const {
  const uint64_t h = HashBytes(s);
  const Slot* slot =
      slots_.Find(h, [&](const Slot& x) { return Holds(x, h, s); });
  return slot == nullptr ? kNone : slot->id_plus_1 - 1;
}

uint64_t StringInterner::Hash(std::string_view s) { return HashBytes(s); }

void StringInterner::PrefetchBytes(uint64_t hash) const {
  const Slot& home = slots_.Home(hash);
  if (home.hash == hash && home.size > 0) {
    __builtin_prefetch(home.data);
    __builtin_prefetch(home.data + home.size - 1);
  }
}

SymbolId StringInterner::Intern(std::string_view s, bool* added) {
  return Intern(s, HashBytes(s), added);
}

SymbolId StringInterner::Intern(std::string_view s, uint64_t h, bool* added) {
  Slot* slot =
      slots_.FindOrFree(h, [&](const Slot& x) { return Holds(x, h, s); });
  if (added) *added = slot->empty();
  if (!slot->empty()) return slot->id_plus_1 - 1;
  const SymbolId id = static_cast<SymbolId>(strings_.size());
  const std::string_view stored = arena_.Store(s);
  strings_.push_back(stored);
  *slot = {h, stored.data(), static_cast<uint32_t>(s.size()), id + 1};
  slots_.Added([](const Slot& x) { return x.hash; });
  return id;
}

}  // namespace flamefold
