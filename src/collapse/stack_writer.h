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
#include <string_view>

#include "base/diag.h"
#include "base/output.h"
#include "base/perl_number.h"

namespace flamefold {

class StackWriter {
 public:
  virtual ~StackWriter() = default;
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
