#include "symbols/overlap_tree.h"

#include <algorithm>
#include <iterator>

namespace flamefold {

// A clean symbol holds bytes, starts after its neighbours' starts and ends
// before the next one starts. An address in a clean symbol and outside the
// overlaps is in no other symbol, so each node of the tree the walk meets
// sends it towards that symbol (were a node's start below it and its end
// above the address, the node would hold the address), and the walk finds
// it, as a binary search does. An address in no symbol is found by neither.
std::vector<std::pair<uint64_t, uint64_t>> OverlapRanges(
    const BigVector<Symbol>& seq) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < seq.size(); ++i) {
    const Symbol& s = seq[i];
    // An earlier symbol reaching into this one is not clean itself, and
    // its range is among the overlaps: only the neighbours are compared.
    bool clean = s.end > s.start &&
                 (i == 0 || seq[i - 1].start < s.start) &&
                 (i + 1 == seq.size() || (seq[i + 1].start > s.start &&
                                          s.end <= seq[i + 1].start));
    if (clean || s.end <= s.start) continue;
    if (!out.empty() && s.start <= out.back().second) {
      out.back().second = std::max(out.back().second, s.end);
    } else {
      out.emplace_back(s.start, s.end);
    }
  }
  return out;
}

OverlapTree::OverlapTree(BigVector<Symbol> added,
                         std::span<const Symbol> late,
                         const BigVector<Symbol>& finished,
                         const SymbolTable& names_of)
    : added_(std::move(added)),
      late_(late.begin(), late.end()),
      overlaps_(OverlapRanges(finished)) {
  tree_.ShareNames(names_of);
}

bool OverlapTree::Covers(uint64_t addr) const {
  auto it = std::upper_bound(
      overlaps_.begin(), overlaps_.end(), addr,
      [](uint64_t a, const std::pair<uint64_t, uint64_t>& r) {
        return a < r.first;
      });
  return it != overlaps_.begin() && addr < std::prev(it)->second;
}

SymbolTable& OverlapTree::Tree() {
  std::call_once(built_, [this] {
    *tree_.mutable_symbols() = std::move(added_);
    tree_.FinishAsPerfTree(late_, false);
  });
  return tree_;
}

}  // namespace flamefold
