// flamebatch: a folder of archived profiles -> folded + SVG (+ report) each,
// converted in parallel, with progress on stderr.
#ifndef FLAMEFOLD_BATCH_H_
#define FLAMEFOLD_BATCH_H_

#include <string>
#include <vector>

#include "flamefold/diag.h"
#include "flamefold/flamegraph_cli.h"

namespace flamefold {

struct BatchConfig {
  std::string outdir = ".";      // -o OUTDIR
  int jobs = 1;                  // --jobs N; ParseBatchArgs sets the cores
  bool folded = true;            // --folded / --svg pick outputs; neither
  bool svg = true;               //   given: both
  bool report = false;           // --report: NAME.report.txt as well
  bool force = false;            // --force: convert even when up to date
  bool quiet = false;            // -q: no warnings, no progress
  FlameSvgConfig svg_config;     // every flamesvg option, for the SVGs
  std::vector<std::string> paths;  // files and folders (recursive)
};

enum class BatchArgs { kRun, kHelp, kVersion, kUsageError };

/// Parses flamebatch's options (spelled in full) and hands the rest to
/// flamesvg's parser, whose operands are the paths.
BatchArgs ParseBatchArgs(int argc, char** argv, BatchConfig* config,
                         std::string* err);

std::string BatchHelp();

/// One input file and where its outputs go ("OUTDIR/rel/dir/NAME").
struct BatchJob {
  std::string input;
  std::string out_base;
  std::string label;   // the path relative to the folder given
  uint64_t bytes = 0;
};

/// Expands files and folders into jobs, sorted, skipping hidden entries and
/// anything inside OUTDIR. Sets *err for a path that does not exist.
bool CollectJobs(const BatchConfig& config, std::vector<BatchJob>* jobs,
                 std::string* err);

/// "NAME" of an input file: its name less a .gz/.zst ending, then less one
/// of .txt .data .folded .perf .stacks ("web1.perf.data" -> "web1.perf",
/// "perf.data" -> "perf", "cpu.txt.zst" -> "cpu").
std::string OutputName(const std::string& file_name);

/// Converts every job; returns the exit status (1 when any input failed).
int RunBatch(const BatchConfig& config, const Diag& diag);

}  // namespace flamefold

#endif  // FLAMEFOLD_BATCH_H_
