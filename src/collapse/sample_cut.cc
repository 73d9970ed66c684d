#include "collapse/sample_cut.h"

#include <string.h>

#include <algorithm>

namespace flamefold {

// From the end, a '\n' at a time with memrchr, which skips many bytes at
// once: std::string_view's rfind("\n\n") compares byte by byte, and with
// samples of megabytes (or frame names of tens of KB) the reading thread
// would spend its time in this scan while the parsers wait.
size_t AfterLastEmptyLine(std::string_view text) {
  size_t end = text.size();
  while (end >= 2) {
    const void* nl = memrchr(text.data(), '\n', end);
    if (nl == nullptr) break;
    size_t at = static_cast<size_t>(static_cast<const char*>(nl) - text.data());
    if (at > 0 && text[at - 1] == '\n') return at + 1;
    end = at;
  }
  return std::string_view::npos;
}

size_t CutFinder::Find(std::string_view text) {
  size_t from = std::min(scanned_, text.size());
  size_t cut = AfterLastEmptyLine(text.substr(from));
  if (cut != std::string_view::npos) return from + cut;
  scanned_ = text.empty() ? 0 : text.size() - 1;
  return cut;
}

}  // namespace flamefold
