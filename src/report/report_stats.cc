#include "report/report_stats.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace flamefold {

bool PerlNumberLess(const PerlNumber& a, const PerlNumber& b) {
  if (a.is_integer() && b.is_integer()) return a.uint_value() < b.uint_value();
  return a.AsDouble() < b.AsDouble();
}

double Percent(const PerlNumber& part, const PerlNumber& whole) {
  if (whole.IsZero()) return 0;
  return 100.0 * part.AsDouble() / whole.AsDouble();
}

namespace {

// Depth-first over the stacks below the process frame `proc` (children of
// n: child_list[child_start[n] .. child_start[n + 1])), iterative so that a
// 100,000-deep stack cannot overflow the call stack. Calls
// visit(node, outermost) for every node, `outermost` being true when no
// frame between the process frame and the node has the same name: a stack
// adds to a function's total only at its outermost call. `active` counts
// the names on the current path (zeros before and after).
template <typename Visit>
void WalkCalls(const StackTrie& trie, const std::vector<uint32_t>& child_start,
               const std::vector<NodeId>& child_list, NodeId proc,
               std::vector<uint32_t>* active, Visit visit) {
  std::vector<std::pair<NodeId, uint32_t>> path;
  path.assign(1, {proc, child_start[proc]});
  while (!path.empty()) {
    auto& [node, next] = path.back();
    if (next < child_start[node + 1]) {
      NodeId child = child_list[next++];
      visit(child, (*active)[trie.frame(child)]++ == 0);
      path.push_back({child, child_start[child]});
      continue;
    }
    if (path.size() > 1) (*active)[trie.frame(node)]--;
    path.pop_back();
  }
}

}  // namespace

ProfileSummary::ProfileSummary(const StackTrie& trie) : trie_(trie) {
  BuildChildren();
  ComputeCounts();
}

// Children in one array (CSR), so walks need no allocation per node. A
// child is always created after its parent, so ids grow downwards.
void ProfileSummary::BuildChildren() {
  size_t n = trie_.node_count();
  child_start_.assign(n + 1, 0);
  for (NodeId i = 1; i < n; ++i) child_start_[trie_.parent(i) + 1]++;
  for (size_t i = 0; i < n; ++i) child_start_[i + 1] += child_start_[i];
  child_list_.resize(n > 0 ? n - 1 : 0);
  std::vector<uint32_t> fill(child_start_.begin(), child_start_.end() - 1);
  for (NodeId i = 1; i < n; ++i) child_list_[fill[trie_.parent(i)]++] = i;
  subtree_.assign(n, PerlNumber());
  for (NodeId i = 0; i < n; ++i) {
    subtree_[i] = trie_.weight(i);
    if (trie_.samples(i) > 0) distinct_stacks_++;
  }
  for (NodeId i = static_cast<NodeId>(n); i-- > 1;) {
    subtree_[trie_.parent(i)].Add(subtree_[i]);
  }
}

void ProfileSummary::ComputeCounts() {
  if (trie_.node_count() == 0) return;
  total_ = subtree_[StackTrie::kRoot];
  function_of_.assign(trie_.names().size(), -1);
  std::vector<uint32_t> active(trie_.names().size(), 0);
  auto function = [&](SymbolId s) -> FunctionStat& {
    if (function_of_[s] < 0) {
      function_of_[s] = static_cast<int64_t>(functions_.size());
      functions_.push_back({std::string(trie_.names().Get(s)), {}, {}});
    }
    return functions_[function_of_[s]];
  };
  for (uint32_t k = child_start_[0]; k < child_start_[1]; ++k) {
    NodeId proc = child_list_[k];
    processes_.push_back({std::string(trie_.names().Get(trie_.frame(proc))),
                          subtree_[proc]});
    WalkCalls(trie_, child_start_, child_list_, proc, &active,
              [&](NodeId child, bool outermost) {
                FunctionStat& f = function(trie_.frame(child));
                f.self.Add(trie_.weight(child));
                if (outermost) f.total.Add(subtree_[child]);
              });
  }
  std::sort(processes_.begin(), processes_.end(),
            [](const ProcessStat& a, const ProcessStat& b) {
              if (PerlNumberLess(b.samples, a.samples)) return true;
              if (PerlNumberLess(a.samples, b.samples)) return false;
              return a.name < b.name;
            });
}

namespace {

// The functions by `first`, then `second`, heaviest first, then by name
// (each function has its own: a total order); the `limit` first (0: all).
// Only those are sorted (a partial sort): a profile whose every frame is
// distinct has hundreds of thousands of functions, of which a report shows a
// few.
std::vector<size_t> Rank(const std::vector<FunctionStat>& fs, size_t limit,
                         PerlNumber FunctionStat::*first,
                         PerlNumber FunctionStat::*second) {
  std::vector<size_t> order(fs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto before = [&](size_t a, size_t b) {
    const FunctionStat& x = fs[a];
    const FunctionStat& y = fs[b];
    if (PerlNumberLess(y.*first, x.*first)) return true;
    if (PerlNumberLess(x.*first, y.*first)) return false;
    if (PerlNumberLess(y.*second, x.*second)) return true;
    if (PerlNumberLess(x.*second, y.*second)) return false;
    return x.name < y.name;
  };
  if (limit > 0 && order.size() > limit) {
    std::partial_sort(order.begin(), order.begin() + limit, order.end(),
                      before);
    order.resize(limit);
  } else {
    std::sort(order.begin(), order.end(), before);
  }
  return order;
}

}  // namespace

std::vector<size_t> ProfileSummary::RankBySelf(size_t limit) const {
  return Rank(functions_, limit, &FunctionStat::self, &FunctionStat::total);
}

std::vector<size_t> ProfileSummary::RankByTotal(size_t limit) const {
  return Rank(functions_, limit, &FunctionStat::total, &FunctionStat::self);
}

// The tree being merged: children found by key (the frame's name, and
// whether it is the process frame) through `index`, so a function with many
// distinct callees or callers merges in linear time.
struct ProfileSummary::MergeNode {
  SymbolId name = 0;
  bool process = false;
  PerlNumber samples;
  std::vector<MergeNode> children;
  std::unordered_map<uint64_t, size_t> index;

  MergeNode& Child(SymbolId frame, bool is_process) {
    uint64_t key = (uint64_t{is_process} << 32) | frame;
    auto [it, added] = index.try_emplace(key, children.size());
    if (added) children.push_back(MergeNode{frame, is_process, {}, {}, {}});
    return children[it->second];
  }
};

void ProfileSummary::MergeCallees(NodeId node, int depth,
                                  MergeNode* into) const {
  for (uint32_t k = child_start_[node]; k < child_start_[node + 1]; ++k) {
    NodeId child = child_list_[k];
    MergeNode& target = into->Child(trie_.frame(child), false);
    target.samples.Add(subtree_[child]);
    if (depth > 1) MergeCallees(child, depth - 1, &target);
  }
}

// The frames above `call` (a function's outermost call in its stacks), up
// to `depth` of them or to the process frame, each credited with the
// samples under `call`.
void ProfileSummary::MergeCallers(NodeId call, int depth,
                                  MergeNode* into) const {
  NodeId up = trie_.parent(call);
  for (int level = 0; level < depth && up != StackTrie::kRoot; ++level) {
    bool process = trie_.parent(up) == StackTrie::kRoot;
    into = &into->Child(trie_.frame(up), process);
    into->samples.Add(subtree_[call]);
    up = trie_.parent(up);
  }
}

std::vector<CallNode> ProfileSummary::ToNodes(const MergeNode& merged,
                                              size_t width) const {
  std::vector<const MergeNode*> order;
  for (const MergeNode& c : merged.children) order.push_back(&c);
  auto names = [&](const MergeNode* n) { return trie_.names().Get(n->name); };
  // Heaviest first, ties by name (functions before the process); only the
  // `width` first are kept.
  auto heavier = [&](const MergeNode* a, const MergeNode* b) {
    if (PerlNumberLess(b->samples, a->samples)) return true;
    if (PerlNumberLess(a->samples, b->samples)) return false;
    if (a->process != b->process) return b->process;
    return names(a) < names(b);
  };
  size_t keep = std::min(width, order.size());
  std::partial_sort(order.begin(), order.begin() + keep, order.end(), heavier);
  std::vector<CallNode> out;
  for (size_t i = 0; i < keep; ++i) {
    out.push_back({std::string(names(order[i])), order[i]->samples,
                   ToNodes(*order[i], width), order[i]->process});
  }
  return out;
}

std::vector<CallNode> ProfileSummary::Callees(size_t index, int depth,
                                              size_t width) const {
  return Callees(std::vector<size_t>{index}, depth, width)[0];
}

// One walk finds the outermost call of each function asked for in every
// path (`active` counts the calls on the path; inner, recursive calls are
// inside that call's subtree): (position in `indexes`, call node), sorted.
// Each function's tree is then merged from its own calls and converted,
// one function at a time: the work is the nodes times `depth` and memory
// holds one merged tree. (Walking the whole profile for each batch of
// functions would take time quadratic in the depth of a deep stack.)
std::vector<std::pair<size_t, NodeId>> ProfileSummary::OutermostCalls(
    const std::vector<size_t>& indexes) const {
  std::vector<int64_t> slot(trie_.names().size(), -1);
  for (size_t i = 0; i < indexes.size(); ++i) {
    slot[trie_.names().Find(functions_[indexes[i]].name)] =
        static_cast<int64_t>(i);
  }
  std::vector<std::pair<size_t, NodeId>> calls;
  std::vector<uint32_t> active(trie_.names().size(), 0);
  for (uint32_t k = child_start_[0]; k < child_start_[1]; ++k) {
    WalkCalls(trie_, child_start_, child_list_, child_list_[k], &active,
              [&](NodeId child, bool outermost) {
                int64_t which = slot[trie_.frame(child)];
                if (outermost && which >= 0) {
                  calls.emplace_back(static_cast<size_t>(which), child);
                }
              });
  }
  std::sort(calls.begin(), calls.end());
  return calls;
}

std::vector<std::vector<CallNode>> ProfileSummary::Callees(
    const std::vector<size_t>& indexes, int depth, size_t width) const {
  return Trees(indexes, depth, width, &ProfileSummary::MergeCallees);
}

std::vector<std::vector<CallNode>> ProfileSummary::Callers(
    const std::vector<size_t>& indexes, int depth, size_t width) const {
  return Trees(indexes, depth, width, &ProfileSummary::MergeCallers);
}

// The tree of each function, merged by `merge` from its outermost calls.
std::vector<std::vector<CallNode>> ProfileSummary::Trees(
    const std::vector<size_t>& indexes, int depth, size_t width,
    MergeFn merge) const {
  std::vector<std::vector<CallNode>> out(indexes.size());
  if (depth < 1 || indexes.empty()) return out;
  std::vector<std::pair<size_t, NodeId>> calls = OutermostCalls(indexes);
  for (size_t i = 0; i < calls.size();) {
    size_t which = calls[i].first;
    MergeNode merged;
    for (; i < calls.size() && calls[i].first == which; ++i) {
      (this->*merge)(calls[i].second, depth, &merged);
    }
    out[which] = ToNodes(merged, width);
  }
  return out;
}

}  // namespace flamefold
