// The FlameScope page: a subsecond-offset heat map of the samples (one
// column a second, one row a fraction of it) and, below it, the flame graph
// of the cells a reader selects, in one self-contained HTML file.
//
// The columns are the whole seconds counted from the second the first
// sample falls in, the rows the fraction of the second (row r of R holds
// the offsets from r/R up to, not including, (r+1)/R), as FlameScope cuts
// them. A selection from cell A to cell B is the time from A's start to
// B's end: the page names it as perf's absolute "START,END" with
// nanoseconds, END the last nanosecond of B, so that `flamefold
// --time-range` keeps exactly the samples of the cells selected.
//
// The page holds each distinct stack once, as frame ids into a name table,
// and each cell as its sample count and runs of (stack, weight), the
// samples of a stack in a cell summed into one run. The data block is JSON
// whose every '<' is escaped (whatever the title, the document stays
// well-formed): "title", "command", "base" (the first column's second),
// "rows", "columns", "packedBytes" and "packed": the tables, deflated in
// the zlib format (packedBytes bytes), as text of two digits for each 13
// bits (the first digit * 91 + the second; the bytes' bits lowest first;
// the digits '!' to '~' less '"', '<' and '\'). The page inflates them
// with the browser's DecompressionStream. Inflated, the tables are
// sections, each its length (a LEB128 number: 7 bits a byte, lowest first)
// and its bytes:
//   1. JSON: "names" (the frames'), "fills" (their colours), "rootFill",
//      "stackCount", "weightUnit", "weights" (the runs' odd weights);
//   2. for each stack, in byte order of the lines: the frames it shares
//      with the stack before and the number of its other frames (LEB128);
//   3. those other frames, stack after stack (LEB128): each 1 + its place
//      among the frames seen below its caller before (the root's frames
//      alike), in the order first seen there, or 0 then its name id;
//   4. for each cell with samples: the cells since the one before, its
//      samples, its runs (LEB128);
//   5. the runs' stacks, each less the stack of the run before in its cell
//      (the runs of a cell go by stack), as byte planes;
//   6. the runs' weights as byte planes: 1 + W / weightUnit for a whole W
//      (weightUnit: the whole weights' greatest common divisor), 0 for the
//      next of "weights" (a fraction, or too large for JavaScript to hold
//      exactly).
// Byte planes: the width W (a byte: the bytes of the greatest value), then
// the lowest byte of each value, then the next byte of each, W planes.
#ifndef FLAMEFOLD_FLAMEGRAPH_SCOPE_PAGE_H_
#define FLAMEFOLD_FLAMEGRAPH_SCOPE_PAGE_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"
#include "base/output.h"
#include "base/perl_number.h"
#include "base/string_interner.h"
#include "collapse/timed_sample.h"

namespace flamefold {

/// The timed samples of a fold, each with its stack (interned once) and
/// weight. Samples without a time are counted, not kept. A sample's stack
/// is looked up two samples later, its slot and bytes fetched into the
/// cache meanwhile: call Flush after the last sample.
class ScopeSamples : public TimedSampleSink {
 public:
  void OnTimedSample(const TimedSample& s) override;
  /// Looks up the stacks of the samples still waiting.
  void Flush();

  struct Sample {
    uint64_t time_ns;
    uint32_t stack;  // into stack_keys()
    PerlNumber weight;
  };
  const BigArray<Sample>& samples() const { return samples_; }
  /// The frames of stack `id`, root first.
  std::span<const SymbolId> Frames(uint32_t id) const;
  size_t stack_count() const { return stack_keys_.size(); }
  uint64_t untimed() const { return untimed_; }

 private:
  // A sample whose stack is yet to be looked up.
  struct Waiting {
    uint64_t time_ns;
    PerlNumber weight;
    uint64_t hash;
    std::string key;  // the stack's frame ids, as bytes
  };
  static constexpr size_t kWaiting = 3;
  void Keep(const Waiting& w);

  BigArray<Sample> samples_;
  StringInterner stack_keys_;  // each stack's frame ids, as bytes
  Waiting waiting_[kWaiting];  // the sample n is at [n % kWaiting]
  uint64_t arrived_ = 0, kept_ = 0;  // timed samples
  uint64_t untimed_ = 0;
};

/// What --include/--exclude and the transforms make of a folded stack:
/// false when they drop it, else `*out` holds the stack to draw.
using StackRewrite = std::function<bool(std::string_view line, std::string* out)>;

/// The heat map's cells and the stacks they hold.
struct ScopeData {
  struct Run {
    uint32_t stack;  // into lines
    PerlNumber weight;
  };
  uint64_t base_ns = 0;   // the start of the first sample's whole second
  uint32_t rows = 50;
  uint64_t columns = 0;
  std::vector<std::string> lines;     // the distinct stacks, in byte order
  std::vector<uint64_t> cell_samples;  // [column * rows + row]
  std::vector<uint64_t> cell_runs;    // cell c's runs: [cell_runs[c], [c+1])
  std::vector<Run> runs;               // by cell, then stack

  uint64_t cells() const { return columns * rows; }
  /// The samples of each column.
  std::vector<uint64_t> PerSecond() const;
};

/// The columns of the heat map are at most this many (2 h 46 min): a
/// browser draws no canvas wider than 32,767 pixels, and the page draws a
/// column 3 pixels wide at the least. Beyond, BuildScopeData refuses.
constexpr uint64_t kMaxScopeSeconds = 10000;

/// Cuts `samples` into cells of `rows` rows a second, each stack's line made
/// from `names` (the fold's) and passed through `rewrite`. False with `*err`
/// when there is no timed sample or too many cells.
bool BuildScopeData(const ScopeSamples& samples, const StringInterner& names,
                    uint32_t rows, const StackRewrite& rewrite,
                    ScopeData* data, std::string* err);

/// "SECOND SAMPLES" and one line per column.
std::string PerSecondTable(const ScopeData& data);

struct ScopePageOptions {
  std::string title = "FlameScope";
  /// The command the page shows for a selection, before " --time-range R":
  /// "flamefold" and the fold's options and inputs, shell-quoted.
  std::string fold_command = "flamefold";
};

/// Writes the page: HTML, its style, the data and the script.
void WriteScopePage(const ScopeData& data, const ScopePageOptions& options,
                    OutputSink* out);

/// The page's script (src/flamegraph/scope.js).
std::string_view ScopeScript();

}  // namespace flamefold

#endif  // FLAMEFOLD_FLAMEGRAPH_SCOPE_PAGE_H_
