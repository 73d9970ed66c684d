#include "collapse/frame_origins.h"

#include "symbols/symbol_resolver.h"

namespace flamefold {

void FrameOrigins::Note(SymbolId name, const RecordedFrame& f) {
  if (name >= origins_.size()) {
    origins_.resize(name + 1, Origin{0, kNone});
  }
  Origin& o = origins_[name];
  if (o.address != kNone) return;
  o.mapping = f.dso != nullptr ? MappingOf(f.dso) : 0;
  o.address = f.address;
}

// Mappings are told apart by file and build id: a DSO of an earlier
// recording with the same ones is the same mapping.
uint32_t FrameOrigins::MappingOf(const Dso* dso) {
  auto [it, added] = dso_index_.try_emplace(dso, 0);
  if (!added) return it->second;
  // The kernel and its modules have no path: their names stand for them.
  const std::string& file = dso->path.empty() ? dso->name : dso->path;
  for (size_t i = 0; i < mappings_.size(); ++i) {
    if (mappings_[i].file == file &&
        mappings_[i].build_id == dso->build_id) {
      it->second = static_cast<uint32_t>(i + 1);
      return it->second;
    }
  }
  mappings_.push_back({file, dso->build_id});
  it->second = static_cast<uint32_t>(mappings_.size());
  return it->second;
}

}  // namespace flamefold
