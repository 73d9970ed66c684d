// Limits on stack depth and frame-name length, shared by every tool that
// parses stacks (perf script text, perf.data call chains, folded text).
//
// Past a limit nothing is dropped silently and memory stays bounded:
//   - a stack deeper than max_depth frames (the process frame included, as
//     the frames of a folded line are counted) keeps its max_depth frames
//     nearest the root; the sample keeps its weight, so the totals of the
//     graph do not change, and the cut samples are counted;
//   - a frame name longer than max_frame bytes is cut to at most max_frame
//     bytes at a UTF-8 character boundary, and counted.
// Each tool prints one warning per input at the end ("FILE: N sample(s) had
// stacks deeper than D frames ...") and its --stats says the totals.
// The defaults are far above what real profiles hold (perf's call chains
// stop at kernel.perf_event_max_stack, 127 frames unless raised; the longest
// demangled C++ names are tens of KB), so they change no real output.
#ifndef FLAMEFOLD_COLLAPSE_STACK_LIMITS_H_
#define FLAMEFOLD_COLLAPSE_STACK_LIMITS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace flamefold {

struct StackLimits {
  static constexpr size_t kDefaultMaxDepth = 65536;    // frames
  static constexpr size_t kDefaultMaxFrame = 262144;   // bytes (256 KiB)
  size_t max_depth = kDefaultMaxDepth;  // --max-stack-depth N
  size_t max_frame = kDefaultMaxFrame;  // --max-frame-length BYTES
  // --max-line-length BYTES: longer input lines are skipped and counted
  // (as lines that are not stacks); 0 = the tool's default.
  size_t max_line = 0;
  /// The line limit: `max_line` when given, else `tool_default`.
  size_t LineLimit(size_t tool_default) const {
    return max_line != 0 ? max_line : tool_default;
  }
};

/// What the limits changed, for the warnings and --stats.
struct LimitStats {
  uint64_t deep_samples = 0;  // samples whose stack was cut to max_depth
  uint64_t deepest = 0;       // frames in the deepest of those stacks
  uint64_t long_frames = 0;   // frame names cut to max_frame
  uint64_t longest = 0;       // bytes of the longest of those names
  bool any() const { return deep_samples > 0 || long_frames > 0; }
  /// Adds the counts of `o`; the maxima take the larger.
  void Add(const LimitStats& o);
  /// The counts added since `before` (a copy taken earlier); a maximum is
  /// this object's when it grew since, else 0 (unknown).
  LimitStats Since(const LimitStats& before) const;
};


/// Applies both limits to a folded stack "a;b;c" (frames separated by ';').
/// Returns `stack` itself when it is within them (the common case, without
/// a copy), else the limited stack, written to `*scratch`. Counts what was
/// cut in `*stats`.
std::string_view LimitFoldedStack(std::string_view stack,
                                  const StackLimits& limits, LimitStats* stats,
                                  std::string* scratch);

/// The one warning about `file` ("" when the input has no name), or "" when
/// no limit was reached: "FILE: 2 sample(s) had stacks deeper than 65536
/// frames (deepest: 100000) and were cut to the 65536 frames nearest the
/// root; ... (see --max-stack-depth, --max-frame-length)".
std::string LimitWarning(std::string_view file, const StackLimits& limits,
                         const LimitStats& stats);

/// The --stats line of the limits, without the "TOOL: stats: " prefix.
std::string LimitStatsText(const LimitStats& stats);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_STACK_LIMITS_H_
