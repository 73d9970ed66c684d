// OverlapTree: where perf's tree must answer for a table whose symbols
// overlap, and what it answers there.
#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "base/big_alloc.h"
#include "symbols/overlap_tree.h"
#include "symbols/symbol.h"
#include "symbols/symbol_table.h"

namespace flamefold {
namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

Symbol Sym(uint64_t start, uint64_t end, const char* name) {
  return Symbol{start, end, name, SymbolBinding::kGlobal};
}

TEST_CASE("OverlapRanges merges the ranges of symbols that are not clean") {
  BigVector<Symbol> finished = {
      Sym(0x100, 0x110, "clean"),
      Sym(0x200, 0x300, "func"),  // reaches into the label
      Sym(0x240, 0x400, "label"),  // clean: only the neighbours count
      Sym(0x580, 0x700, "holds_a_plt_entry"),
      Sym(0x600, 0x600, "zero_size_plt"),  // holds no byte: passed over
      Sym(0x800, 0x900, "outer"),
      Sym(0x850, 0x950, "inner"),  // its range merges with outer's
      Sym(0x900, 0x910, "after"),
      Sym(0xa00, 0xa10, "same_start"),
      Sym(0xa00, 0xa08, "same_start_too"),
  };
  CHECK(OverlapRanges(finished) ==
        Ranges{{0x200, 0x300}, {0x580, 0x700}, {0x800, 0x950},
               {0xa00, 0xa10}});
  BigVector<Symbol> disjoint = {Sym(0x100, 0x110, "a"),
                                Sym(0x110, 0x120, "b")};
  CHECK(OverlapRanges(disjoint).empty());
}

TEST_CASE("OverlapTree covers the overlaps and finds there what perf's tree finds") {
  // Added in this order, perf's tree has `func` at its root: an address in
  // both `func` and the label inside it finds `func`, where the closest
  // start below it is the label's.
  BigVector<Symbol> added = {
      Sym(0x0, 0x10, "first"),
      Sym(0x100, 0x200, "func"),
      Sym(0x140, 0x140, "label_in_func"),
  };
  BigVector<Symbol> finished = {
      Sym(0x0, 0x10, "first"),
      Sym(0x100, 0x200, "func"),
      Sym(0x140, 0x2000, "label_in_func"),  // a page past, rounded up
  };
  SymbolTable names;
  OverlapTree tree(added, {}, finished, names);
  CHECK_FALSE(tree.Covers(0x8));
  CHECK_FALSE(tree.Covers(0xff));
  CHECK(tree.Covers(0x100));
  CHECK(tree.Covers(0x1ff));
  CHECK_FALSE(tree.Covers(0x200));
  const Symbol* in_func = tree.Tree().Find(0x150);
  REQUIRE(in_func != nullptr);
  CHECK(in_func->name == "func");
  const Symbol* past_func = tree.Tree().Find(0x250);
  REQUIRE(past_func != nullptr);
  CHECK(past_func->name == "label_in_func");
  CHECK(&tree.Tree() == &tree.Tree());  // built once
}

}  // namespace
}  // namespace flamefold
