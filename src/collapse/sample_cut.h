// Where perf script text may be cut into chunks that parse on their own:
// just after an empty line, which ends a sample (see fold_inputs.cc).
#ifndef FLAMEFOLD_COLLAPSE_SAMPLE_CUT_H_
#define FLAMEFOLD_COLLAPSE_SAMPLE_CUT_H_

#include <cstddef>
#include <string_view>

namespace flamefold {

/// The offset just after the last empty line of `text` (the end of its
/// last "\n\n"); npos when it has none.
size_t AfterLastEmptyLine(std::string_view text);

/// AfterLastEmptyLine of a text that grows at its end between looks: each
/// look scans only what came since the last one (and the byte before it,
/// for an empty line across the two), so that a sample of megabytes that
/// comes in pieces is not scanned again for every piece.
class CutFinder {
 public:
  /// AfterLastEmptyLine(text), where `text` begins as the text of the
  /// previous look did (since the last Reset).
  size_t Find(std::string_view text);
  /// The text begins anew: a chunk was cut off its front.
  void Reset() { scanned_ = 0; }

 private:
  size_t scanned_ = 0;  // the text before this has no empty line
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_SAMPLE_CUT_H_
