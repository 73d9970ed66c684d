// Merging sorted folded lines into flame graph frames, as flamegraph.pl's
// flow() does, without keeping the whole merged tree.
//
// Each line "root;...;leaf COUNT" (or "STACK COUNT1 COUNT2" for a
// differential graph) extends the frames it shares with the previous line
// and closes the others. A frame's width is known when it closes, so a
// frame narrower than --minwidth can be dropped at once: only the frames
// that will be drawn are kept. The total is not known until the end, so the
// early test uses the total so far (the threshold only grows with it) and
// Finish() applies the exact one.
#ifndef FLAMEFOLD_FLAMEGRAPH_FLAMEGRAPH_MERGE_H_
#define FLAMEFOLD_FLAMEGRAPH_FLAMEGRAPH_MERGE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_interner.h"
#include "base/perl_number.h"

namespace flamefold {

/// One frame to draw. Times are in count units from the left edge.
struct FlameFrame {
  SymbolId name;
  uint32_t depth;  // 0 is the root ("all")
  double stime;    // start
  double etime;    // end, as flamegraph.pl's node key shows it (%.15g)
  double width;    // etime - stime, exact when both are integers (as Perl's)
  double delta;    // differential: the frame's own delta
  bool has_delta;
};

/// --minwidth: pixels, or a percentage of the total.
struct MinWidth {
  double value = 0.1;
  bool percent = false;
  /// Pixels available to the frames: image width - 2 * xpad.
  double frame_pixels = 1180;
  /// --total when given and true in Perl's sense ("" and "0" are false).
  bool has_total = false;
  double total = 0;

  /// The total used for widths: --total unless it is below `time`.
  double TimeMax(double time) const {
    return has_total && total >= time ? total : time;
  }
  /// Frames narrower than this (in count units) are not drawn.
  double Threshold(double time) const;
};

/// Splits `s` on `sep` as Perl's split does: trailing empty fields are
/// removed (so "" gives no field and "a;b;" gives a, b).
void PerlSplit(std::string_view s, std::string_view sep,
               std::vector<std::string_view>* out);

/// Parses a folded line as flamegraph.pl does: the stack, the count, and a
/// second count for differential input ("a;b 3 5": counts 3 and 5).
/// Accepted: "java;main;foo 12", "a;b 2.5", "a;b 10 12", " 7".
bool ParseFlameLine(std::string_view line, std::string_view* stack,
                    std::string_view* count1, std::string_view* count2);

/// flamegraph.pl --reverse: the line with its frames in reverse order and
/// its counts re-joined with single spaces. Lines that do not parse become
/// " " (still invalid, still counted).
std::string ReverseFlameLine(std::string_view line);

/// flamegraph.pl --colors=chain: frames after a "--" separator get "_[w]"
/// (and every stack gains a trailing "--" frame, as in flamegraph.pl).
std::string ChainAnnotate(std::string_view stack);

class FrameMerger {
 public:
  FrameMerger(const MinWidth& min_width, bool chain);

  /// Adds one line, in the order flamegraph.pl merges them (sorted, or
  /// input order for --flamechart). Invalid lines are counted.
  void AddLine(std::string_view line);
  /// Closes every frame and drops those below the final --minwidth.
  void Finish();

  /// Drops all but the `max_frames` widest frames (their counts stay in
  /// their parents' widths). Call after Finish(). Returns how many went.
  size_t LimitFrames(size_t max_frames);

  const std::vector<FlameFrame>& frames() const { return frames_; }
  const StringInterner& names() const { return names_; }
  double time() const { return time_.AsDouble(); }
  double max_delta() const { return max_delta_; }
  uint64_t ignored() const { return ignored_; }
  uint64_t valid_lines() const { return valid_lines_; }
  uint32_t depth_max() const { return depth_max_; }

 private:
  // A frame of the current stack, still growing. Its name is
  // stack_[name_begin, name_end) (the root's is empty).
  struct Open {
    size_t name_begin;
    size_t name_end;
    double stime;
    double delta;
    bool has_delta;
    bool start_is_integer;  // Perl keeps integer times as exact integers
    uint64_t start;
  };
  // A frame closed at the current end-time key; its name is
  // closed_names_[name_begin, name_begin + name_size).
  struct Closed {
    size_t name_begin;  // zero-count lines can pile up names past 4 GiB
    uint32_t name_size;
    size_t depth;
    int64_t frame;  // index in frames_, or -1 when dropped
  };
  // How many frames of the open stack (root included) `stack` shares: the
  // frames of its longest common prefix that end at the same place.
  size_t SharedFrames(std::string_view stack) const;
  // Closes the open frames from depth `depth` up, deepest first.
  void CloseFrom(size_t depth);
  // Makes `stack` the open stack, opening its frames from depth `depth`.
  void OpenFrom(size_t depth, std::string_view stack, bool has_delta,
                double delta);
  void Close(size_t depth, double etime, double threshold,
             size_t earlier_closed, size_t closed_name_at);
  // Drops the frames narrower than `threshold`; call only with closed_
  // empty (it holds indices in frames_).
  void Prune(double threshold);
  double Width(const Open& o, double etime) const;
  double EndTimeKey() const;
  std::string_view OpenName(const Open& o) const {
    return std::string_view(stack_).substr(o.name_begin,
                                           o.name_end - o.name_begin);
  }

  MinWidth min_width_;
  bool chain_;
  StringInterner names_;
  std::vector<FlameFrame> frames_;
  // frames_ is pruned when it reaches this size (then twice what is left).
  static constexpr size_t kFirstPrune = 4096;
  size_t prune_at_ = kFirstPrune;
  // The open frames: the root, then one per frame of stack_.
  std::vector<Open> open_;
  // The frames of the last line, ';'-separated, trailing ';' removed (Perl's
  // split drops trailing empty fields).
  std::string stack_;
  // Frames closed at the current end-time key, per depth: flamegraph.pl
  // keys nodes by "name;depth;etime", so a later frame closing with the
  // same key replaces the earlier one's start (zero-count lines do this).
  std::vector<Closed> closed_;
  std::string closed_names_;
  double closed_key_ = -1;
  PerlNumber time_;
  double max_delta_ = 1;
  uint64_t ignored_ = 0;
  uint64_t valid_lines_ = 0;
  uint32_t depth_max_ = 0;
  std::string chain_buf_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_FLAMEGRAPH_MERGE_H_
