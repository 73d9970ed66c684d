// ProfileSummary: per-function sample counts of a folded profile, the
// numbers behind flamereport and flamediff --report.
//
// The first frame of every stack is the process (stackcollapse-perf.pl puts
// the command name there), so it is counted under processes, not functions.
// For every other frame name:
//   self  = the samples of the stacks that end in it (it was running);
//   total = the samples of the stacks that contain it anywhere, each stack
//           counted once, so that recursion (a;f;g;f) does not count twice.
#ifndef FLAMEFOLD_REPORT_REPORT_STATS_H_
#define FLAMEFOLD_REPORT_REPORT_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/perl_number.h"
#include "collapse/stack_trie.h"

namespace flamefold {

struct FunctionStat {
  std::string name;
  PerlNumber self;
  PerlNumber total;
};

struct ProcessStat {
  std::string name;
  PerlNumber samples;
};

/// One callee of a function (with its callees as children), or one caller
/// (with its callers as children), and the samples of the stacks through
/// it.
struct CallNode {
  std::string name;
  PerlNumber samples;
  std::vector<CallNode> children;  // heaviest first
  bool process = false;  // a caller that is the process frame: no function
};

/// Orders counts as numbers (exact for integers).
bool PerlNumberLess(const PerlNumber& a, const PerlNumber& b);

/// 100 * part / whole, 0 when `whole` is zero.
double Percent(const PerlNumber& part, const PerlNumber& whole);

class ProfileSummary {
 public:
  /// Summarises `trie`, which must not change while this object is used.
  explicit ProfileSummary(const StackTrie& trie);

  const PerlNumber& total_samples() const { return total_; }
  uint64_t distinct_stacks() const { return distinct_stacks_; }
  /// Heaviest first, ties by name.
  const std::vector<ProcessStat>& processes() const { return processes_; }
  /// Every function, in no particular order.
  const std::vector<FunctionStat>& functions() const { return functions_; }

  /// Indexes into functions(): by self (or total) samples, heaviest first,
  /// ties by the other count and then by name; at most `limit` (0: all).
  std::vector<size_t> RankBySelf(size_t limit) const;
  std::vector<size_t> RankByTotal(size_t limit) const;

  /// Where the time of function `index` goes: its callees merged over every
  /// stack (from its outermost call in each), `depth` levels deep, the
  /// `width` heaviest at each level.
  std::vector<CallNode> Callees(size_t index, int depth, size_t width) const;
  /// The same for several functions at once, in one walk of the profile.
  std::vector<std::vector<CallNode>> Callees(
      const std::vector<size_t>& indexes, int depth, size_t width) const;
  /// Who is responsible for the time of each function: its callers, then
  /// theirs, `depth` levels up, merged over every stack from its outermost
  /// call in each (so each stack counts once, and a function is never its
  /// own caller), the `width` heaviest at each level. A function called by
  /// no other in a stack has the process frame as its caller; the chain
  /// ends there.
  std::vector<std::vector<CallNode>> Callers(
      const std::vector<size_t>& indexes, int depth, size_t width) const;

 private:
  void BuildChildren();
  void ComputeCounts();
  struct MergeNode;
  std::vector<std::pair<size_t, NodeId>> OutermostCalls(
      const std::vector<size_t>& indexes) const;
  void MergeCallees(NodeId node, int depth, MergeNode* into) const;
  void MergeCallers(NodeId call, int depth, MergeNode* into) const;
  std::vector<CallNode> ToNodes(const MergeNode& merged, size_t width) const;
  using MergeFn = void (ProfileSummary::*)(NodeId, int, MergeNode*) const;
  std::vector<std::vector<CallNode>> Trees(const std::vector<size_t>& indexes,
                                           int depth, size_t width,
                                           MergeFn merge) const;

  const StackTrie& trie_;
  std::vector<PerlNumber> subtree_;      // samples at or below each node
  std::vector<uint32_t> child_start_;    // children of n: child_list_[
  std::vector<NodeId> child_list_;       //   child_start_[n]..[n+1])
  std::vector<int64_t> function_of_;     // SymbolId -> functions_ index
  PerlNumber total_;
  uint64_t distinct_stacks_ = 0;
  std::vector<ProcessStat> processes_;
  std::vector<FunctionStat> functions_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_REPORT_REPORT_STATS_H_
