// PerfTree: a red-black tree keyed by start, equal starts to the right, and
// perf's clean-ups made on it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/big_alloc.h"
#include "symbols/name_store.h"
#include "symbols/perf_tree.h"
#include "symbols/symbol.h"

namespace flamefold {
namespace {

// Checks the red-black rules below `n` (links both ways, no red node with
// a red child, one black count on every path) and returns the black count.
int CheckBelow(const PerfTree& t, int32_t n) {
  if (n < 0) return 1;
  const PerfTree::Node& node = t.node(n);
  for (int32_t child : {node.left, node.right}) {
    if (child < 0) continue;
    REQUIRE(t.node(child).parent == n);
    REQUIRE_FALSE((node.red && t.node(child).red));
  }
  if (node.left >= 0) REQUIRE(t.node(node.left).start <= node.start);
  if (node.right >= 0) REQUIRE(t.node(node.right).start >= node.start);
  int left = CheckBelow(t, node.left);
  REQUIRE(left == CheckBelow(t, node.right));
  return left + (node.red ? 0 : 1);
}

// The symbol positions in tree order.
std::vector<uint32_t> InOrder(const PerfTree& t) {
  std::vector<uint32_t> out;
  for (int32_t n = t.First(); n >= 0; n = t.Next(n)) {
    out.push_back(t.node(n).sym);
  }
  return out;
}

TEST_CASE("PerfTree keeps the red-black rules and orders equal starts as inserted") {
  uint64_t seed = 2024;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  for (int round = 0; round < 50; ++round) {
    PerfTree t;
    std::vector<std::pair<uint64_t, uint32_t>> want;  // (start, position)
    uint32_t n = 1 + static_cast<uint32_t>(rnd(300));
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t start = rnd(round % 2 ? 20 : 100000);  // many equal starts
      t.Insert(i, start);
      want.emplace_back(start, i);
    }
    REQUIRE_FALSE(t.node(t.root()).red);
    CheckBelow(t, t.root());
    // Erase about half, through the tree's own positions.
    std::vector<int32_t> erase;
    for (int32_t node = 0; node < static_cast<int32_t>(n); ++node) {
      if (rnd(2)) erase.push_back(node);
    }
    for (int32_t node : erase) {
      t.Erase(node);
      std::erase_if(want, [&](const std::pair<uint64_t, uint32_t>& w) {
        return w.second == t.node(node).sym;
      });
      if (!t.empty()) CheckBelow(t, t.root());
    }
    std::stable_sort(want.begin(), want.end(),
                     [](const auto& a, const auto& b) {
                       return a.first < b.first;
                     });
    std::vector<uint32_t> order;
    for (const auto& w : want) order.push_back(w.second);
    REQUIRE(InOrder(t) == order);
  }
}

TEST_CASE("PerfTree::Build ends size-less symbols and drops aliases in tree order") {
  BigVector<Symbol> syms = {
      {0x100, 0x100, "a_sizeless", SymbolBinding::kGlobal},
      {0x100, 0x110, "a_sized", SymbolBinding::kGlobal},
      {0x300, 0x300, "last", SymbolBinding::kGlobal},
      {0x200, 0x200, "b", SymbolBinding::kLocal},
  };
  std::vector<Symbol> late = {{0x150, 0x160, "p", SymbolBinding::kGlobal}};
  NameStore names;
  PerfTree t;
  t.Build(&syms, late, &names);
  REQUIRE(syms.size() == 5);  // the alias stays, unlinked; the late added
  std::vector<uint32_t> order = InOrder(t);
  REQUIRE(order == std::vector<uint32_t>{1, 4, 3, 2});
  CHECK(syms[1].end == 0x110);  // sized: kept as it is
  CHECK(syms[3].end == 0x300);  // b ends where `last` starts
  CHECK(syms[2].end == 0x2000);  // a page past, rounded up to a page
  CHECK(syms[4].end == 0x160);
  CheckBelow(t, t.root());
}

}  // namespace
}  // namespace flamefold
