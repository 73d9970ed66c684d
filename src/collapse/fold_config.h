// FoldConfig: how the inputs of one run are folded (FoldInputs) and what
// is said about them (fold_warnings.h). A plain struct: each tool's command
// line fills it (cli/), the engines only read it.
#ifndef FLAMEFOLD_COLLAPSE_FOLD_CONFIG_H_
#define FLAMEFOLD_COLLAPSE_FOLD_CONFIG_H_

#include <memory>
#include <string>
#include <vector>

#include "collapse/input_kind.h"
#include "collapse/perf_script.h"
#include "collapse/stack_transform.h"
#include "collapse/stack_writer.h"
#include "io/line_reader.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

class FrameInliner;

/// The defaults are those of stackcollapse-perf.pl, read sequentially.
struct FoldConfig {
  PerfScriptOptions perf;            // stackcollapse-perf.pl's options, limits
  std::vector<std::string> include;  // --include REGEX (repeatable)
  std::vector<std::string> exclude;  // --exclude REGEX (repeatable)
  std::vector<TransformStep> transforms;  // --focus ... in the order given
  std::string output;                // -o FILE; "" is stdout
  StackWriterMaker make_writer = MakeFoldedWriter;  // flamefold --format
  int jobs = 1;                      // --jobs N: parsing threads
  bool stats = false;                // --stats: counts on stderr
  bool quiet = false;                // -q: no warnings
  size_t max_line = LineReader::kDefaultMaxLine;  // --max-line-length
  std::vector<std::string> inputs;   // none: stdin
  InputOpener open_input = OpenInput;  // how each of them is opened
  SymbolOptions symbols;             // perf.data: --symfs, --kallsyms
  std::string archive;               // perf.data: --archive FILE
  std::shared_ptr<FrameInliner> inliner;  // --inline; perf.inliner points here
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FOLD_CONFIG_H_
