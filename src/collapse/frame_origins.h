// FrameOrigins: where the frames of a recording came from, for the exports
// that keep it (pprof's mappings and locations): for each frame name, the
// file it was found in (with its build id) and the first address that was
// given that name. Folded stacks and perf script text carry no such thing;
// a name the fold made itself (the process frame, "[unknown]" of no
// mapping) has no origin.
#ifndef FLAMEFOLD_COLLAPSE_FRAME_ORIGINS_H_
#define FLAMEFOLD_COLLAPSE_FRAME_ORIGINS_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/string_interner.h"
#include "collapse/recorded_sample.h"

namespace flamefold {

class FrameOrigins {
 public:
  /// A file frames were found in.
  struct Mapping {
    std::string file;      // as recorded ("[kernel.kallsyms]" for the kernel)
    std::string build_id;  // raw bytes; "" when unknown
  };
  /// Where a frame name came from. `mapping` indexes mappings() from 1;
  /// 0: no file.
  struct Origin {
    uint32_t mapping = 0;
    uint64_t address = 0;  // as perf script shows it
  };

  /// Notes that `name` was made of the frame `f`, unless the name has an
  /// origin already (the first one stays).
  void Note(SymbolId name, const RecordedFrame& f);
  /// Forgets the DSOs of the recording read so far (a new one follows);
  /// the names keep their origins.
  void StartRecording() { dso_index_.clear(); }

  /// The origin of `name`; nullptr when it has none.
  const Origin* Of(SymbolId name) const {
    if (name >= origins_.size() || origins_[name].address == kNone) {
      return nullptr;
    }
    return &origins_[name];
  }
  const std::vector<Mapping>& mappings() const { return mappings_; }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;
  uint32_t MappingOf(const Dso* dso);

  std::vector<Origin> origins_;  // by name; address kNone: none yet
  std::vector<Mapping> mappings_;
  std::unordered_map<const Dso*, uint32_t> dso_index_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FRAME_ORIGINS_H_
