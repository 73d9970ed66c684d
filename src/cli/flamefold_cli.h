// The flamefold command: options, validation and the run, kept in the
// library so that tests drive it without a process.
#ifndef FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
#define FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/diag.h"
#include "io/input.h"
#include "io/line_reader.h"
#include "base/options.h"
#include "base/output.h"
#include "collapse/perf_script.h"
#include "symbols/symbol_resolver.h"

namespace flamefold {

class FrameInliner;
class FoldInputs;

/// Validated flamefold options. Defaults are those of stackcollapse-perf.pl.
struct FoldConfig {
  PerfScriptOptions perf;
  std::vector<std::string> include;  // --include REGEX (repeatable)
  std::vector<std::string> exclude;  // --exclude REGEX (repeatable)
  std::string output;                // -o FILE; "" is stdout
  int jobs = 1;                      // --jobs N; 0 = one per core
  bool stats = false;                // --stats: counts on stderr
  bool quiet = false;                // -q: no warnings
  size_t max_line = LineReader::kDefaultMaxLine;  // --max-line-length
  std::vector<std::string> inputs;   // none: stdin
  InputOpener open_input = OpenInput;  // how each of them is opened
  SymbolOptions symbols;             // perf.data: --symfs, --kallsyms
  std::string archive;               // perf.data: --archive FILE
  std::shared_ptr<FrameInliner> inliner;  // --inline; perf.inliner points here
};

/// The options that say how perf script text and perf.data are folded
/// (stackcollapse-perf.pl's, then --modern, --symfs, --kallsyms): every
/// tool that folds takes them, so that its stacks are flamefold's.
std::span<const OptionSpec> FoldOptionSpecs();

/// Sets in `config` what `opts` holds of FoldOptionSpecs().
void ApplyFoldOptions(const ParsedOptions& opts, FoldConfig* config);

enum class ArgsResult { kRun, kHelp, kVersion, kUsageError };

/// Parses flamefold's command line. kUsageError sets `*err`.
ArgsResult ParseFoldArgs(int argc, char** argv, FoldConfig* config,
                         std::string* err);

/// The text of `flamefold --help`.
std::string FoldHelp();

/// flamefold's whole option table (FoldOptionSpecs() and its own), for
/// tools that take flamefold's options and hand them to ParseFoldArgs
/// (flamebatch).
std::span<const OptionSpec> FlamefoldOptionSpecs();
/// Warns, once each, about what folding perf script text lost or changed:
/// lines skipped, other events, an --event-filter that matched nothing
/// (naming the events there are), the Perl script's quirks (unless
/// --modern). `event` is the event kept.
void WarnAboutPerfScript(const FoldConfig& config, const PerfScriptStats& s,
                         const std::string& event, const Diag& diag);

/// WarnAboutPerfScript for all of `inputs`, then folded lines skipped,
/// stacks cut to the limits, and an empty result: what every tool that
/// folds with FoldInputs says once its output is written.
void WarnAboutFold(const FoldConfig& config, const FoldInputs& inputs,
                   const StackTrie& trie, const Diag& diag);

/// Folds every input into `out`. Returns the exit status; messages go
/// through `diag`.
int RunFold(const FoldConfig& config, OutputSink* out, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_FLAMEFOLD_CLI_H_
