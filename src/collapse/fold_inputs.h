// FoldInputs: the one "fold these inputs" path of every tool that folds
// (flamefold, flamereport, flamediff's perf sides, flamebatch): feeds the
// inputs of one run into a StackTrie, or without one gives their stacks as
// folded lines (VisitStacks), dispatching on content (perf script
// text, folded stacks, recordings through a RecordingFolder) and, with
// --jobs N, parsing large perf script inputs on N threads. What it lost is
// said by fold_warnings.h.
#ifndef FLAMEFOLD_COLLAPSE_FOLD_INPUTS_H_
#define FLAMEFOLD_COLLAPSE_FOLD_INPUTS_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/diag.h"
#include "collapse/fold_config.h"
#include "collapse/folded.h"
#include "collapse/input_kind.h"
#include "collapse/perf_script.h"
#include "collapse/recording_folder.h"
#include "collapse/stack_counts.h"
#include "collapse/stack_trie.h"
#include "collapse/timed_sample.h"

namespace flamefold {

// A parser of --jobs N's (fold_inputs.cc): this thread's or a worker
// thread's, kept across inputs with its caches.
struct FoldWorker;

class FoldInputs {
 public:
  /// Recordings (perf.data) are folded by `recordings`, which says what
  /// they lost; without one, such an input is an error. Without a `trie`,
  /// the stacks are given as folded lines by VisitStacks instead.
  FoldInputs(const FoldConfig& config, StringInterner* names, StackTrie* trie,
             RecordingFolder* recordings);
  ~FoldInputs();

  /// Opens and folds one input ("-" is stdin). On failure `*err` names the
  /// file (and line, for parse errors).
  bool Add(const std::string& file, std::string* err);
  /// The same for an input already opened (and sniffed) by the caller,
  /// named `in->name`; it reads `in->source` to its end.
  bool AddOpened(Input* in, std::string* err);
  /// Ends the input (the Perl script's end-of-input rules apply here) and
  /// builds the trie from the stacks read (if there is one).
  void Finish();
  /// Without a trie, after Finish: calls `visit` for each distinct stack,
  /// in the order and with the counts the trie's Walk would give, once
  /// (a trie costs more to build and walk than the lines do to write).
  void VisitStacks(const StackCounts::LineVisitor& visit);
  /// Where each sample folded goes too, with its time (SampleFold's timed
  /// sink; nullptr: nowhere). A run with one folds on one thread, so that
  /// the samples come in the inputs' order. Must outlive this.
  void set_timed_sink(TimedSampleSink* sink);
  /// The samples these inputs folded, after Finish.
  uint64_t total_samples() const { return total_samples_; }
  /// A whole run: Add()s each of `files` (none: "-", stdin), then Finish().
  /// False with `*err` when an input cannot be read, or when nothing was
  /// folded and lines were skipped: then the input is not a profile at all
  /// ("FILE: no samples found: N line(s) are neither ... (first: ...)").
  bool FoldAll(std::vector<std::string> files, std::string* err);

  /// After Finish: false with `*err` when --time-range kept none of the
  /// samples the inputs hold ("--time-range 'R' selects no sample: the
  /// samples run from FIRST to LAST").
  bool TimeRangeKeptSome(std::string* err) const;

  const PerfScriptStats& perf_stats() const { return stats_; }
  const FoldedStats& folded_stats() const { return folded_stats_; }
  /// The event kept ("" when no event line was seen).
  std::string event() const;
  /// The inputs whose stacks or frame names were cut to the limits (see
  /// stack_limits.h), in the order read, each with what was cut.
  const std::vector<std::pair<std::string, LimitStats>>& limit_hits() const {
    return limit_hits_;
  }
  /// What the limits cut in all the inputs read so far.
  LimitStats limit_totals() const;

 private:
  bool AddInput(Input& in, std::string* err);
  void NoteLimits(const std::string& file, const LimitStats& before);
  bool AddParallel(const std::string& file, uint64_t index,
                   ByteSource* source, std::string* err);
  bool AddSequential(const std::string& file, uint64_t index,
                     ByteSource* source, std::string* err);
  void StartWorkers(const PerfScriptOptions& options);
  void SortTables(std::vector<std::vector<SymbolId>>* maps,
                  std::vector<uint32_t>* rank);
  std::vector<StackCounts*> Tables();
  bool TextInParallel() const;

  // The stacks parsed by one worker thread, in names of its own: kept
  // across inputs, sorted and merged into the trie by Finish().
  struct WorkerTables {
    StringInterner names;
    StackCounts counts;
  };

  std::vector<std::pair<std::string, LimitStats>> limit_hits_;
  std::string last_file_;
  const FoldConfig& config_;
  RecordingFolder* recordings_;
  StringInterner* names_;
  StackTrie* trie_;
  StackCounts counts_;       // the stacks read, until Finish() builds trie_
  std::vector<std::unique_ptr<WorkerTables>> worker_tables_;  // --jobs N
  // --jobs N's parsers (this thread's first, then one per worker table),
  // made at the first input parsed in parallel and kept, as the tables
  // are: each input after the first finds its lines and frames cached.
  std::vector<std::unique_ptr<FoldWorker>> workers_;
  PerfScriptParser parser_;  // the sequential parser; its state spans inputs
  PerfScriptStats stats_;         // all of it, after Finish()
  PerfScriptStats worker_stats_;  // what the parallel workers parsed
  FoldedStats folded_stats_;
  uint64_t input_count_ = 0;
  std::string parallel_event_;
  TimedSampleSink* timed_sink_ = nullptr;
  uint64_t total_samples_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_FOLD_INPUTS_H_
