// flamefold's C++ API: folding perf script text, perf.data or folded stacks
// into one count per distinct stack, as `flamefold` does.
#ifndef FLAMEFOLD_API_FOLD_H_
#define FLAMEFOLD_API_FOLD_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flamefold/input.h"
#include "flamefold/status.h"

namespace flamefold::api {

/// flamefold's options (see flamefold(1)); each field names its option.
/// Unset fields keep the tool's defaults, which are stackcollapse-perf.pl's.
struct FoldOptions {
  bool pid = false;             // --pid: process frame as comm-PID
  bool tid = false;             // --tid: process frame as comm-PID/TID
  bool kernel = false;          // --kernel: mark kernel frames _[k]
  bool jit = false;             // --jit: mark JIT frames _[j]
  bool all = false;             // --all: --kernel and --jit
  bool addrs = false;           // --addrs: [mod <addr>] for unknown symbols
  std::string event_filter;     // --event-filter ("": the first event seen)
  bool srcline = false;         // --srcline
  bool inline_frames = false;   // --inline
  bool context = false;         // --context (with --inline)
  bool modern = false;          // --modern: fix the Perl script's data loss
  std::string weight;           // --weight FIELD: each tracepoint sample
                                // counts its FIELD ("bytes_alloc")
  std::string symfs;            // --symfs DIR
  std::string archive;          // --archive FILE (perf.data)
  std::string kallsyms;         // --kallsyms FILE (perf.data)
  std::string buildid_dir;      // --buildid-dir DIR (perf.data)
  std::vector<std::string> include;  // --include REGEX, each (RE2)
  std::vector<std::string> exclude;  // --exclude REGEX, each (RE2)
  std::optional<int> jobs;                    // --jobs N (0: one per core)
  std::optional<uint64_t> max_line_length;    // --max-line-length BYTES
  std::optional<uint64_t> max_stack_depth;    // --max-stack-depth N
  std::optional<uint64_t> max_frame_length;   // --max-frame-length BYTES
  bool quiet = false;           // -q: no warnings
  MessageHandler on_message;    // warnings and notes; none: stderr
};

/// One line of flamefold's output.
struct FoldedStack {
  std::string_view stack;  // the frames, root first, joined by ';'
  std::string_view count;  // as printed: an integer, or a decimal when
                           // folded input had fractional counts
  /// The frames of `stack`, root first.
  std::vector<std::string_view> frames() const;
};

/// The stacks of one fold, in the order flamefold prints them (sorted,
/// filtered by --include/--exclude). Moves, does not copy.
class FoldedStacks {
 public:
  FoldedStacks();
  ~FoldedStacks();
  FoldedStacks(FoldedStacks&&) noexcept;
  FoldedStacks& operator=(FoldedStacks&&) noexcept;

  size_t size() const;
  bool empty() const { return size() == 0; }
  /// The i-th line (i < size()); its views live as long as this object.
  FoldedStack operator[](size_t i) const;
  /// What `flamefold` prints, byte for byte: "STACK COUNT\n" per stack.
  std::string_view text() const;

 private:
  friend Status Fold(const std::vector<Input>&, const FoldOptions&,
                     FoldedStacks*);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Folds `inputs` (none: standard input) into `*out` as `flamefold` with
/// `options` does. On failure `*out` is left empty and the status says why.
Status Fold(const std::vector<Input>& inputs, const FoldOptions& options,
            FoldedStacks* out);

}  // namespace flamefold::api

#endif  // FLAMEFOLD_API_FOLD_H_
