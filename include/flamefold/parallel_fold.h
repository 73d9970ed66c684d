// FoldInputs: feeds the inputs of one flamefold run into a StackTrie,
// dispatching on content (perf script text, folded stacks) and, with
// --jobs N, parsing large perf script inputs on N threads.
#ifndef FLAMEFOLD_PARALLEL_FOLD_H_
#define FLAMEFOLD_PARALLEL_FOLD_H_

#include <memory>
#include <string>

#include "flamefold/fold.h"
#include "flamefold/folded.h"
#include "flamefold/perf_script.h"
#include "flamefold/stack_counts.h"
#include "flamefold/stack_trie.h"

namespace flamefold {

class FoldInputs {
 public:
  FoldInputs(const FoldConfig& config, StringInterner* names, StackTrie* trie);
  ~FoldInputs();

  /// Opens and folds one input ("-" is stdin). On failure `*err` names the
  /// file (and line, for parse errors).
  bool Add(const std::string& file, std::string* err);
  /// Ends the input (the Perl script's end-of-input rules apply here) and
  /// builds the trie from the stacks read.
  void Finish();

  const PerfScriptStats& perf_stats() const { return stats_; }
  const FoldedStats& folded_stats() const { return folded_stats_; }
  /// The event kept ("" when no event line was seen).
  std::string event() const;

 private:
  bool AddParallel(const std::string& file, uint64_t index,
                   ByteSource* source, std::string* err);

  const FoldConfig& config_;
  StringInterner* names_;
  StackTrie* trie_;
  StackCounts counts_;       // the stacks read, until Finish() builds trie_
  PerfScriptParser parser_;  // the sequential parser; its state spans inputs
  PerfScriptStats stats_;         // all of it, after Finish()
  PerfScriptStats worker_stats_;  // what the parallel workers parsed
  FoldedStats folded_stats_;
  uint64_t input_count_ = 0;
  std::string parallel_event_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PARALLEL_FOLD_H_
