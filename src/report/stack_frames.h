// StackFrames: the frames of folded stacks, each distinct name numbered
// once, in order of first appearance (0, 1, 2, ...), as the formats that
// list frames apart from the stacks that use them (speedscope's shared
// frames, pprof's functions and locations) need them. Memory follows the
// distinct frames.
#ifndef FLAMEFOLD_EXPORT_STACK_FRAMES_H_
#define FLAMEFOLD_EXPORT_STACK_FRAMES_H_

#include <span>
#include <string_view>
#include <vector>

#include "base/string_interner.h"

namespace flamefold {

class StackFrames {
 public:
  /// The ids of the frames of the folded stack "comm;frame;...;leaf", root
  /// first (an empty frame, as in "a;;b", is a frame with an empty name).
  /// Valid until the next call.
  std::span<const SymbolId> Intern(std::string_view stack);

  size_t size() const { return names_.size(); }
  std::string_view name(SymbolId id) const { return names_.Get(id); }
  const StringInterner& names() const { return names_; }

 private:
  StringInterner names_;
  std::vector<SymbolId> ids_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_EXPORT_STACK_FRAMES_H_
