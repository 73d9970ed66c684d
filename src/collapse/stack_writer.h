// StackWriter: where flamefold's stacks go once folded, filtered and
// transformed. The folded lines are one writer (MakeFoldedWriter); the
// other output formats (export/) are others, chosen by the command line
// (FoldConfig::make_writer), so that every format sees the same stacks,
// in the same order, with the same totals.
#ifndef FLAMEFOLD_COLLAPSE_STACK_WRITER_H_
#define FLAMEFOLD_COLLAPSE_STACK_WRITER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/diag.h"
#include "base/output.h"
#include "base/perl_number.h"
#include "base/string_interner.h"
#include "collapse/frame_origins.h"
#include "collapse/timed_sample.h"

namespace flamefold {

/// What the fold knew of the stacks a writer is given.
struct FoldFacts {
  /// The event folded ("" when the inputs named none: folded stacks).
  std::string event;
  /// Whether the counts are sums of the samples' periods (perf input
  /// whose headers show one) rather than numbers of samples.
  bool periods = false;
  /// Where the frames came from (FrameOrigins), by their names' ids in
  /// `names`; nullptr unless the writer asked (wants_origins).
  const FrameOrigins* origins = nullptr;
  const StringInterner* names = nullptr;
  /// The samples folded, and whether some input was folded stacks (whose
  /// samples no timed sink sees).
  uint64_t samples = 0;
  bool folded_input = false;
  /// What --include/--exclude and the transforms make of a folded line:
  /// false when they drop it, else the line in `*out`. Valid until Finish.
  std::function<bool(std::string_view line, std::string* out)> shape;

  /// --weight's field ("": none): the counts are sums of its values.
  std::string weight_field;
  /// --off-cpu's unit ("nanoseconds", "microseconds", "milliseconds";
  /// "": no --off-cpu): the counts are off-CPU time in it.
  std::string off_cpu_unit;

  /// Whether the counts are nanoseconds: periods of cpu-clock or
  /// task-clock, with or without modifiers ("cpu-clock:ppp").
  bool nanoseconds() const;
  /// Whether the counts are bytes: sums of a --weight field whose name
  /// says so ("bytes", "bytes_alloc").
  bool bytes() const;
};

/// Whether `event` (as perf names it, "cpu-clock:ppp") is cpu-clock or
/// task-clock, whose sample periods are nanoseconds.
bool ClockEvent(std::string_view event);

class StackWriter {
 public:
  virtual ~StackWriter() = default;
  /// Whether the fold should note where frames came from (FoldFacts).
  virtual bool wants_origins() const { return false; }
  /// Where the fold should hand each sample with its time as it folds
  /// it (nullptr: nowhere), before Begin; the samples' frames are ids of
  /// `names`, which outlives the writer's use of it.
  virtual TimedSampleSink* timed_sink(const StringInterner* /*names*/) {
    return nullptr;
  }
  /// Before the first stack: what the fold knew of them.
  virtual void Begin(const FoldFacts& /*facts*/) {}
  /// One distinct stack, its folded line "comm;frame;...;leaf" (never
  /// empty), its weight (the count folded lines show) and its samples.
  /// Stacks come in the byte order of their lines, each once.
  virtual void Add(std::string_view stack, const PerlNumber& weight,
                   uint64_t samples) = 0;
  /// After the last stack: writes what the format holds back to the end.
  /// Returns false after an error it has said through `diag`.
  virtual bool Finish(const Diag& diag) = 0;
};

/// Makes the writer of a run's stacks into `out`.
using StackWriterMaker =
    std::function<std::unique_ptr<StackWriter>(OutputSink* out)>;

/// The folded lines, "STACK COUNT\n", as stackcollapse-perf.pl writes them.
std::unique_ptr<StackWriter> MakeFoldedWriter(OutputSink* out);

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_STACK_WRITER_H_
