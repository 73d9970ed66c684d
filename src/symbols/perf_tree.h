// PerfTree: the red-black tree perf keeps a binary's symbols in, keyed by
// start address, an equal start going right: a plain red-black tree
// (insertion and deletion as in Cormen et al., a node with two children
// deleted by moving its successor up), which is what the kernel's
// lib/rbtree.c implements.
//
// Why its own tree: where symbols overlap (a label inside a function, a
// size-less symbol stretched over the next ones), which symbol a search
// finds depends on the tree's shape. Build gives it perf's shape by making
// the same insertions and erasures in the same order, so that a look-up
// finds the symbol perf script names.
#ifndef FLAMEFOLD_SYMBOLS_PERF_TREE_H_
#define FLAMEFOLD_SYMBOLS_PERF_TREE_H_

#include <cstdint>
#include <span>

#include "base/big_alloc.h"
#include "symbols/name_store.h"
#include "symbols/symbol.h"

namespace flamefold {

class PerfTree {
 public:
  struct Node {
    int32_t left = -1, right = -1, parent = -1;
    bool red = true;
    uint32_t sym = 0;  // a position in the table's symbols
    uint64_t start = 0;  // that symbol's start: inserting reads no symbol
  };

  /// perf's tree of `syms`, and perf's clean-ups made on it: the symbols
  /// inserted in their order; a size-less one ends where the next in tree
  /// order starts (the last one a page past its start, rounded up to a
  /// page); of those at one address, the one KeepFirst keeps, comparing the
  /// survivor with each next one, stays in the tree (the others stay in
  /// `syms`, unlinked). Then `late` (perf's PLT entries, which it adds after
  /// its clean-ups) are appended to `syms` and inserted as they are.
  /// `names` keeps the names demangled to compare aliases.
  void Build(BigVector<Symbol>* syms, std::span<const Symbol> late,
             NameStore* names);

  void Insert(uint32_t sym, uint64_t start);
  void Erase(int32_t n);
  void clear() {
    nodes_.clear();
    root_ = -1;
  }

  /// Nodes by index, -1 for none; erased nodes keep their index.
  bool empty() const { return root_ < 0; }
  int32_t root() const { return root_; }
  size_t size() const { return nodes_.size(); }
  const Node& node(int32_t n) const { return nodes_[n]; }
  /// The leftmost node, and the next one in tree order (-1 past the last).
  int32_t First() const;
  int32_t Next(int32_t n) const;

 private:
  void InsertFixup(int32_t z);
  void EraseFixup(int32_t x, int32_t parent);
  void RotateLeft(int32_t x);
  void RotateRight(int32_t x);
  void SetChild(int32_t parent, int32_t old_child, int32_t new_child);
  void FixEnds(BigVector<Symbol>* syms) const;
  void EraseAliases(BigVector<Symbol>* syms, NameStore* names);

  BigVector<Node> nodes_;
  int32_t root_ = -1;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_PERF_TREE_H_
