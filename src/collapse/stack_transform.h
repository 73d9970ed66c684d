// StackTransform: the stack transforms (--focus, --ignore, --hide,
// --show-from, --skip-after, --prune-from, --collapse-recursion,
// --generalize-names), applied to a folded stack "comm;frame;...;frame" one
// step after the other, in the order given. They work on frames: a regex
// matches a frame when it finds a match in its name (RE2, as --include
// does on a line), and the process frame, the first, is a frame like the
// others. The steps' meanings are pprof's options of the same names
// (-focus, -ignore, -hide, -show_from, -prune_from), inferno's
// --skip-after and stackcollapse-recursive.pl's merge; see Apply.
// Compiled once; each step is linear in the stack's frames.
#ifndef FLAMEFOLD_COLLAPSE_STACK_TRANSFORM_H_
#define FLAMEFOLD_COLLAPSE_STACK_TRANSFORM_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diag.h"

namespace re2 {
class RE2;
}

namespace flamefold {

struct FoldConfig;
class StackFilter;

enum class TransformKind {
  kFocus,              // --focus REGEX
  kIgnore,             // --ignore REGEX
  kHide,               // --hide REGEX
  kShowFrom,           // --show-from REGEX
  kSkipAfter,          // --skip-after NAME
  kPruneFrom,          // --prune-from REGEX
  kCollapseRecursion,  // --collapse-recursion
  kGeneralizeNames,    // --generalize-names
};

/// One step: what it does and its pattern or name ("" for the switches).
struct TransformStep {
  TransformKind kind;
  std::string argument;
  bool operator==(const TransformStep&) const = default;
};

/// The options' names, without dashes ("focus", ..., "generalize-names").
std::span<const std::string_view> TransformOptionNames();
/// The kind of the option `name` (one of TransformOptionNames()).
std::optional<TransformKind> TransformKindOf(std::string_view name);

class StackTransform {
 public:
  StackTransform();
  ~StackTransform();
  StackTransform(StackTransform&&) noexcept;
  StackTransform& operator=(StackTransform&&) noexcept;

  /// Compiles the steps' patterns. `process_suffix` says that the process
  /// frames end in --pid's "-PID" (kPid) or --tid's "-PID/TID" (kTid),
  /// which --generalize-names keeps. On a bad pattern returns false with
  /// `*err` naming it: "bad --focus pattern 'a(': missing ): a(".
  enum class ProcessSuffix { kNone, kPid, kTid };
  bool Init(std::vector<TransformStep> steps, ProcessSuffix process_suffix,
            std::string* err);
  bool active() const { return !steps_.empty(); }
  /// Whether a step may change a stack's frames (any but focus and
  /// ignore): only then may two stacks become one, or the order change.
  bool reshapes() const;

  /// What became of a stack.
  enum class Result {
    kKept,     // written to *out
    kDropped,  // by focus, ignore or show-from
    kEmptied,  // left without frames (by hide, show-from, ...)
  };
  /// Applies the steps to `stack` in order; when the stack is kept, writes
  /// the result to `*out`. Each step, on the frames the steps before it
  /// left:
  ///   focus: drops the stack unless a frame matches;
  ///   ignore: drops the stack if a frame matches;
  ///   hide: removes the matching frames;
  ///   show-from: removes the callers of the matching frame nearest the
  ///     root (the frames before it); drops the stack without a match;
  ///   skip-after: removes the callers of the frame nearest the leaf whose
  ///     name is NAME (or NAME with an annotation _[k], _[j], _[i], as
  ///     inferno compares the names before annotating them); a stack
  ///     without one is left as it is;
  ///   prune-from: removes the callees of the matching frame nearest the
  ///     leaf (the frames after it); a stack without a match is left as
  ///     it is;
  ///   collapse-recursion: removes each frame equal to the one before it
  ///     (a;a;a;b is a;b), and, as stackcollapse-recursive.pl splits and
  ///     merges, empty frames at the start and at the end;
  ///   generalize-names: in the process frame, while it is still the
  ///     first, each run of digits that follows a character other than a
  ///     letter or digit becomes '*' (ksoftirqd/3 is ksoftirqd/*,
  ///     pool-3-thread-7 pool-*-thread-*, kworker/0:1H kworker/*:*H; the
  ///     2 of jbd2 and the 3 of python3 stay), but not in the suffix of
  ///     --pid or --tid.
  /// Not thread-safe: it keeps its scratch space.
  Result Apply(std::string_view stack, std::string* out) const;

 private:
  struct Step {
    TransformKind kind;
    std::string argument;
    std::unique_ptr<re2::RE2> regex;  // for the steps that take a regex
  };
  bool AnyMatch(const Step& step) const;
  bool ApplyStep(const Step& step) const;
  void CollapseRecursion() const;
  void Generalize() const;

  std::vector<Step> steps_;
  ProcessSuffix process_suffix_ = ProcessSuffix::kNone;
  // Apply's scratch: the frames left, whether the first is the process
  // frame, and the generalized process frame's name.
  mutable std::vector<std::string_view> frames_;
  mutable bool process_first_ = false;
  mutable std::string process_name_;
};

/// Compiles the transforms of `config` (config.transforms) into
/// `*transform`; the process frames' suffix is that of config's --pid or
/// --tid. False with `*err` on a bad pattern.
bool InitTransform(const FoldConfig& config, StackTransform* transform,
                   std::string* err);

/// Compiles what selects and reshapes a run's stacks: --include and
/// --exclude into `*filter`, the transforms into `*transform`
/// (InitTransform). False with `*err` on a bad pattern.
bool InitStackSelection(const FoldConfig& config, StackFilter* filter,
                        StackTransform* transform, std::string* err);

/// InitStackSelection for a tool's run: a bad pattern is reported through
/// `diag` and gives the exit status (a usage error); nullopt when all is
/// compiled.
std::optional<int> SelectStacks(const FoldConfig& config, StackFilter* filter,
                                StackTransform* transform, const Diag& diag);

/// What `filter` and `transform` make of the folded line `line`, as
/// flamefold writes it: false when they drop it, else the line in `*out`.
bool ShapeStackLine(const StackFilter& filter, const StackTransform& transform,
                    std::string_view line, std::string* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_STACK_TRANSFORM_H_
