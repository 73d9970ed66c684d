#include "report/stack_frames.h"

namespace flamefold {

std::span<const SymbolId> StackFrames::Intern(std::string_view stack) {
  ids_.clear();
  size_t begin = 0;
  while (true) {
    const size_t end = stack.find(';', begin);
    const size_t stop = end == std::string_view::npos ? stack.size() : end;
    ids_.push_back(names_.Intern(stack.substr(begin, stop - begin)));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return ids_;
}

}  // namespace flamefold
