// OverlapTree: perf's tree (PerfTree) of a table whose finished symbols
// overlap, built at the first look-up that falls inside an overlap.
//
// Only where symbols overlap (a label inside a function, a size-less symbol
// stretched over the next ones) does the tree's shape decide what a search
// finds; at any other address a search of perf's tree finds what a search
// of the sorted symbols finds (see OverlapRanges). Most look-ups land
// outside the overlaps, and building the tree (a red-black insertion a
// symbol, in the order added) would cost as much as the rest of loading a
// debug file's symbols. So a table finished by FinishAsPerfTree keeps its
// sorted search, and this object for the addresses it Covers.
#ifndef FLAMEFOLD_SYMBOLS_OVERLAP_TREE_H_
#define FLAMEFOLD_SYMBOLS_OVERLAP_TREE_H_

#include <cstdint>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "base/big_alloc.h"
#include "symbols/symbol.h"
#include "symbols/symbol_table.h"

namespace flamefold {

/// The addresses where a search of perf's tree of `seq` (finished, sorted)
/// may find other than the closest symbol at or below: the ranges [first,
/// second) of the symbols that are not clean, merged, in order.
std::vector<std::pair<uint64_t, uint64_t>> OverlapRanges(
    const BigVector<Symbol>& seq);

class OverlapTree {
 public:
  /// The tree FinishAsPerfTree(`late`, false) makes of `added` (a table's
  /// symbols as added), whose sorted finish is `finished`; its names are
  /// `names_of`'s, kept valid as long as this.
  OverlapTree(BigVector<Symbol> added, std::span<const Symbol> late,
              const BigVector<Symbol>& finished, const SymbolTable& names_of);
  /// Whether `addr` is in one of the overlaps, where the tree must answer.
  bool Covers(uint64_t addr) const;
  /// The tree, built at the first call (thread-safe).
  SymbolTable& Tree();

 private:
  BigVector<Symbol> added_;
  std::vector<Symbol> late_;
  std::vector<std::pair<uint64_t, uint64_t>> overlaps_;
  std::once_flag built_;
  SymbolTable tree_;  // perf's tree of `added_` and `late_`, once built
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_OVERLAP_TREE_H_
