// StackTrie: the folded profile. Each frame name is interned once; a stack
// is a path of nodes from the root, with its count on the last node.
#ifndef FLAMEFOLD_COLLAPSE_STACK_TRIE_H_
#define FLAMEFOLD_COLLAPSE_STACK_TRIE_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_interner.h"
#include "base/big_alloc.h"
#include "base/hash_table.h"
#include "base/perl_number.h"

namespace flamefold {

using NodeId = uint32_t;

/// Receives parsed samples: frames from the root (process name) to the leaf.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  virtual void OnSample(std::span<const SymbolId> frames,
                        const PerlNumber& weight) = 0;
};

class StackTrie : public SampleSink {
 public:
  /// Names are looked up in `names`, which must outlive the trie. A name
  /// must not contain ';' (split such names into several frames first).
  explicit StackTrie(const StringInterner* names);

  void OnSample(std::span<const SymbolId> frames,
                const PerlNumber& weight) override;
  /// Adds `weight` to the stack `frames` and counts one sample there.
  NodeId Add(std::span<const SymbolId> frames, const PerlNumber& weight);

  /// The child of `parent` named `frame`, created when missing.
  NodeId ChildOf(NodeId parent, SymbolId frame) { return Child(parent, frame); }
  /// Creates the child of `parent` named `frame`, which the caller knows is
  /// missing (building a trie from sorted stacks). The look-up table is then
  /// rebuilt only if a later ChildOf or Add needs it.
  NodeId AppendChild(NodeId parent, SymbolId frame) {
    if (table_current_) ReleaseTable();
    return NewNode(parent, frame);
  }
  /// Makes room for `more` nodes, of which `more_ends` end a stack.
  void Reserve(size_t more, size_t more_ends) {
    nodes_.reserve(nodes_.size() + more);
    counts_.reserve(counts_.size() + more_ends);
  }
  /// Adds `weight` and `samples` to the stack ending at `node` (merging).
  void AddCounts(NodeId node, const PerlNumber& weight, uint64_t samples) {
    uint32_t& c = nodes_[node].counts;
    if (c == 0) {
      c = static_cast<uint32_t>(counts_.size());
      counts_.emplace_back();
      walk_order_marked_ = false;  // a new line, maybe out of order
    }
    counts_[c].weight.Add(weight);
    counts_[c].samples += samples;
    total_samples_ += samples;
  }

  static constexpr NodeId kRoot = 0;

  NodeId parent(NodeId n) const { return nodes_[n].parent; }
  SymbolId frame(NodeId n) const { return nodes_[n].frame; }
  const PerlNumber& weight(NodeId n) const {
    return counts_[nodes_[n].counts].weight;
  }
  uint64_t samples(NodeId n) const { return counts_[nodes_[n].counts].samples; }
  size_t node_count() const { return nodes_.size(); }
  uint64_t total_samples() const { return total_samples_; }
  const StringInterner& names() const { return *names_; }
  size_t bytes_used() const {
    return nodes_.capacity() * sizeof(Node) +
           counts_.capacity() * sizeof(Counts) +
           table_.bytes_used() + stacks_.bytes_used();
  }

  /// Calls `visit(node, line)` for every stack that received a sample, in
  /// the byte order of the folded lines "a;b;c" (Perl's `sort` of the keys),
  /// with `line` holding that folded stack. Uses memory for one path only.
  /// A trie whose nodes were created in that order (built from stacks
  /// sorted as KeyRanks sorts them, as StackCounts::MoveInto does) is
  /// walked in id order, without sorting any node's children.
  void Walk(const std::function<void(NodeId, std::string_view)>& visit) const;

  /// Whether the nodes in id order are in Walk's order (each one's line
  /// after the one before); Walk then needs no sorting. Checked in one pass.
  bool IdsInWalkOrder() const;
  /// For the builder of a fresh trie from stacks in KeyRanks order
  /// (StackCounts::MoveSortedInto, whose tests check IdsInWalkOrder after
  /// it): Walk then goes in id order without checking (the check is a pass
  /// over every node of its own, and compares names). A later node or line
  /// unmarks it.
  void MarkIdsInWalkOrder() { walk_order_marked_ = true; }

  /// The rank of every key "name" (at 2 * id) and "name;" (at 2 * id + 1)
  /// in byte order. Stacks compared frame by frame, each frame by the rank
  /// of "name" if the stack ends there and of "name;" if it goes on, are in
  /// the byte order of their folded lines (no name holds ';').
  static std::vector<uint32_t> KeyRanks(const StringInterner& names);


 private:
  // Most nodes end no stack (a profile's stacks share their root frames
  // and differ at the leaves), so the counts are kept apart, for the nodes
  // that have them; and a node keeps no links to its children (only the
  // general Walk needs them, and lists them all at once). A node is 12
  // bytes instead of 40: the trie built at the end of a run touches less
  // than a third of the memory, each page of it zeroed by the kernel first.
  struct Node {
    NodeId parent;
    SymbolId frame;
    uint32_t counts = 0;  // index in counts_; 0: none yet (all zero)
  };
  struct Counts {
    uint64_t samples = 0;
    PerlNumber weight;
  };
  NodeId Child(NodeId parent, SymbolId frame);
  bool HasLine(NodeId n) const {
    return nodes_[n].counts != 0 && counts_[nodes_[n].counts].samples > 0;
  }
  void WalkInIdOrder(
      const std::function<void(NodeId, std::string_view)>& visit) const;
  // Inline: a trie built at the end of a run makes a million of them.
  NodeId NewNode(NodeId parent, SymbolId frame) {
    walk_order_marked_ = false;
    const NodeId id = static_cast<NodeId>(nodes_.size());
    nodes_.push_back(Node{parent, frame, 0});
    return id;
  }
  void ReleaseTable();
  void RebuildTable();

  NodeId FindCachedStack(std::span<const SymbolId> frames, uint64_t hash) const;
  void CacheStack(uint64_t hash, NodeId node);

  const StringInterner* names_;
  bool walk_order_marked_ = false;  // see MarkIdsInWalkOrder
  BigVector<Node> nodes_;
  BigVector<Counts> counts_;  // [0] stays zero: the counts of every other node
  // Whole-stack cache: hash of the frame ids -> last node, so that a stack
  // seen before costs one probe plus a walk up its (hot) nodes instead of
  // one table probe per frame.
  struct StackSlot {
    uint64_t hash;
    NodeId node;  // kRoot: free (a cached stack has a frame)
    bool empty() const { return node == kRoot; }
  };
  HashTable<StackSlot> stacks_{2048};
  // Key (parent << 32 | frame) -> child, for O(1) lookups.
  struct Slot {
    uint64_t key;  // parent << 32 | frame
    NodeId child;  // kRoot: free (the root is no one's child)
    bool empty() const { return child == kRoot; }
    static uint64_t Key(NodeId parent, SymbolId frame) {
      return (static_cast<uint64_t>(parent) << 32) | frame;
    }
  };
  HashTable<Slot> table_{2048};
  bool table_current_ = true;  // false after AppendChild: rebuilt on demand
  uint64_t total_samples_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_STACK_TRIE_H_
