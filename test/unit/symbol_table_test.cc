// SymbolTable: perf's clean-ups (size-less symbols end at the next one,
// one alias kept by perf's rules) and its tree walk where symbols overlap.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "symbols/symbol_table.h"
#include "symbol_checks.h"

namespace flamefold {
namespace {

using testing::NameAt;

TEST_CASE("symbols without a size end at the next one") {
  SymbolTable t;
  t.Add(0x100, 0, "a", SymbolBinding::kGlobal);
  t.Add(0x200, 0x10, "b", SymbolBinding::kGlobal);
  t.Add(0x300, 0, "last", SymbolBinding::kGlobal);
  t.Finish(false);
  CHECK(NameAt(t, 0xff) == "-");
  CHECK(NameAt(t, 0x1ff) == "a");
  CHECK(NameAt(t, 0x20f) == "b");
  CHECK(NameAt(t, 0x210) == "-");
  CHECK(NameAt(t, 0x1fff) == "last");  // to the page after
  CHECK(NameAt(t, 0x2000) == "-");
}

// kallsyms' symbols are cleaned up together, then move to the kernel's and
// the modules' tables: CleanUp does Finish's work but for the search.
TEST_CASE("CleanUp leaves the symbols Finish leaves, and no search") {
  auto fill = [](SymbolTable* t) {
    t->Add(0x300, 0, "c\t[mod]", SymbolBinding::kGlobal);
    t->Add(0x100, 0, "a", SymbolBinding::kGlobal);
    t->Add(0x100, 0, "a_alias", SymbolBinding::kWeak);
    t->Add(0x200, 0, "b", SymbolBinding::kLocal);
  };
  SymbolTable finished, cleaned;
  fill(&finished);
  fill(&cleaned);
  finished.Finish(true);
  cleaned.CleanUp(true);
  REQUIRE(cleaned.size() == 3);
  testing::CheckSameSymbols(cleaned, finished);
  CHECK(cleaned.symbols()[1].end == 0x2000);  // a module follows: a page on
  CHECK(NameAt(finished, 0x150) == "a_alias");  // "a" ends where it starts
  CHECK(NameAt(cleaned, 0x150) == "-");  // nothing to search yet
}

TEST_CASE("of aliases, perf's choice is kept") {
  // glibc's write(): locals beat weak ones, then the longest name wins.
  SymbolTable t;
  t.Add(0x40, 157, "__GI___write", SymbolBinding::kLocal);
  t.Add(0x40, 157, "__GI___libc_write", SymbolBinding::kLocal);
  t.Add(0x40, 157, "__libc_write", SymbolBinding::kLocal);
  t.Add(0x40, 157, "write", SymbolBinding::kWeak);
  t.Finish(false);
  CHECK(NameAt(t, 0x50) == "__GI___libc_write");
  SymbolTable g;
  g.Add(0x40, 0, "zero_size_global", SymbolBinding::kGlobal);
  g.Add(0x40, 8, "_local", SymbolBinding::kLocal);
  g.Add(0x40, 8, "__global", SymbolBinding::kGlobal);
  g.Add(0x48, 8, "next", SymbolBinding::kGlobal);
  g.Finish(false);
  CHECK(NameAt(g, 0x40) == "__global");
}

TEST_CASE("of mangled aliases, the choice waits until one is shown") {
  // A constructor's complete and base object versions and a name with
  // leading underscores once demangled, all global, of one size: perf
  // keeps the first of the fewest underscores, then the longest.
  SymbolTable t;
  t.Add(0x40, 8, "_ZN1AC2Ev", SymbolBinding::kGlobal, true);
  t.Add(0x40, 8, "_ZN1AC1Ev", SymbolBinding::kGlobal, true);
  t.Add(0x40, 8, "_ZN3__a1fEv", SymbolBinding::kGlobal, true);
  t.Add(0x40, 8, "_ZN4AAAA1fEv", SymbolBinding::kGlobal, true);
  t.Add(0x48, 8, "_ZN3__b1fEv", SymbolBinding::kGlobal, true);
  t.Add(0x48, 8, "_ZN1BC1Ev", SymbolBinding::kGlobal, true);
  t.Add(0x50, 8, "_ZN1CC1Ev", SymbolBinding::kGlobal, true);
  t.Add(0x50, 8, "_ZN1CC2Ev", SymbolBinding::kWeak, true);  // by binding
  t.FinishAsPerfTree({});
  REQUIRE(t.size() == 3);
  CHECK(t.symbols()[0].name == "_ZN1AC2Ev");  // not demangled yet
  CHECK(NameAt(t, 0x40) == "AAAA::f");
  CHECK(NameAt(t, 0x48) == "B::B");
  CHECK(NameAt(t, 0x50) == "C::C");
  CHECK(t.symbols()[2].alias_group == 0);
  // An alias of another size decides where the symbol ends: the names are
  // compared at once.
  SymbolTable e;
  e.Add(0x40, 8, "_ZN1AC2Ev", SymbolBinding::kGlobal, true);
  e.Add(0x40, 8, "_ZN1AC1Ev", SymbolBinding::kGlobal, true);
  e.Add(0x40, 16, "_ZN2AA1fEv", SymbolBinding::kGlobal, true);
  e.FinishAsPerfTree({});
  REQUIRE(e.size() == 1);
  CHECK(e.symbols()[0].alias_group == 0);
  CHECK(e.symbols()[0].name == "AA::f");
  CHECK(NameAt(e, 0x4f) == "AA::f");
  // Finishing again makes the choices first.
  t.Finish(false);
  CHECK(t.symbols()[0].name == "AAAA::f");
  CHECK(NameAt(t, 0x48) == "B::B");
}

TEST_CASE("overlapping symbols resolve as perf's tree walk finds them") {
  // Inserted in this order, perf's red-black tree has `func` at its root,
  // so an address in both `func` and the label inside it finds `func`.
  SymbolTable t;
  t.Add(0x0, 0x10, "first", SymbolBinding::kGlobal);
  t.Add(0x100, 0x100, "func", SymbolBinding::kGlobal);
  t.Add(0x140, 0, "label_in_func", SymbolBinding::kLocal);
  t.FinishAsPerfTree({});
  CHECK(NameAt(t, 0x150) == "func");
  CHECK(NameAt(t, 0x250) == "label_in_func");  // stretched to the end
  CHECK(NameAt(t, 0x8) == "first");
  CHECK(NameAt(t, 0x20) == "-");
  // PLT entries come after the clean-ups: a size-less one stays size-less.
  SymbolTable p;
  p.Add(0x1000, 0, "_init", SymbolBinding::kLocal);
  p.Add(0x3000, 0x10, "text", SymbolBinding::kGlobal);
  std::vector<Symbol> plt = {{0x1020, 0x1030, "a@plt"}, {0x1030, 0x1040, "b@plt"},
                             {0x2000, 0x2000, "zero@plt"}};
  p.FinishAsPerfTree(plt);
  CHECK(NameAt(p, 0x1010) == "_init");
  CHECK(NameAt(p, 0x1034) == "b@plt");
  CHECK(NameAt(p, 0x2000) == "-");  // in _init's stretched range, unreached
}

TEST_CASE("perf's tree and the sorted symbols find the same symbols") {
  // Random tables, most without overlaps once finished (aliases at one
  // address, size-less symbols, PLT entries after), some with: each is
  // finished both ways and every address is looked up in both.
  uint64_t seed = 12345;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  // Mangled names too, told apart once demangled: "A::A" twice (a
  // constructor's two versions), "__x::g", "longname::foo", "h".
  const char* names[] = {"a", "_b", "__c", "dd", "e", "_ff", "ggg", "h",
                         "_ZN1AC1Ev", "_ZN1AC2Ev", "_ZN3__x1gEv",
                         "_ZN8longname3fooEi", "_Z1hv"};
  int sorted_tables = 0, tree_later = 0;
  for (int round = 0; round < 400; ++round) {
    SymbolTable tree, sorted;
    uint64_t at = 0x1000;
    int n = 1 + static_cast<int>(rnd(40));
    bool overlaps = rnd(4) == 0;
    for (int i = 0; i < n; ++i) {
      uint64_t gap = rnd(3) == 0 ? 0 : 1 + rnd(32);  // 0: an alias
      at += gap;
      uint64_t size = rnd(3) == 0 ? 0 : 1 + rnd(overlaps ? 64 : gap + 1);
      auto binding = static_cast<SymbolBinding>(rnd(3));
      const char* name = names[rnd(13)];
      bool mangled = name[0] == '_' && name[1] == 'Z';
      tree.Add(at, size, name, binding, mangled);
      sorted.Add(at, size, name, binding, mangled);
    }
    std::vector<Symbol> late;
    for (int i = static_cast<int>(rnd(3)); i > 0; --i) {
      uint64_t start = 0x1000 + rnd(at - 0x1000 + 64);
      late.push_back(Symbol{start, start + rnd(16), "p@plt"});
    }
    tree.FinishAsPerfTree(late, false);
    sorted.FinishAsPerfTree(late, true);
    // The sorted way drops aliases from the table; the tree only unlinks
    // them: tables where the two differ in size took the sorted way.
    sorted_tables += sorted.size() != tree.size();
    // Where the symbols overlap, the tree is built at the first look-up
    // in an overlap; every other address is looked up without it.
    tree_later += sorted.tree_pending();
    for (uint64_t addr = 0xff0; addr < at + 0x1100; ++addr) {
      REQUIRE(NameAt(sorted, addr) == NameAt(tree, addr));
    }
  }
  CHECK(sorted_tables > 20);
  CHECK(tree_later > 20);
}


TEST_CASE("symbols are sorted by start, equal starts in the order added") {
  // Starts spread over all 64 bits, over a few high bits only (a kernel's)
  // and over few values (many equal starts): what std::stable_sort gives.
  uint64_t seed = 99;
  auto rnd = [&]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed ^ (seed >> 29);
  };
  for (int round = 0; round < 60; ++round) {
    SymbolTable t;
    std::vector<Symbol> want;
    std::vector<std::string> names;
    size_t n = round % 4 == 0 ? 5000 : rnd() % 300;
    names.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      uint64_t start = round % 3 == 0   ? rnd()
                       : round % 3 == 1 ? 0xffffffff81000000ULL + rnd() % 4096
                                        : rnd() % 7 << 40;
      names.push_back(std::to_string(i));
      t.Add(start, 0, names.back(), SymbolBinding::kGlobal);
      want.push_back(Symbol{start, start, names.back()});
    }
    t.Finish(false, false);  // sorted, nothing dropped
    std::stable_sort(want.begin(), want.end(),
                     [](const Symbol& a, const Symbol& b) {
                       return a.start < b.start;
                     });
    REQUIRE(t.symbols().size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      REQUIRE(t.symbols()[i].start == want[i].start);
      REQUIRE(t.symbols()[i].name == want[i].name);
    }
  }
}

// The closest symbol at or below `addr` that holds it, by a walk over all
// of them: what a sorted table's Find must return.
const Symbol* FindByWalk(const SymbolTable& t, uint64_t addr) {
  const Symbol* found = nullptr;
  for (const Symbol& s : t.symbols()) {
    if (s.start > addr) break;
    found = &s;
  }
  return found && addr < found->end ? found : nullptr;
}

TEST_CASE("a sorted table's buckets find what a walk over all finds") {
  // Clusters of symbols far apart (a kernel's at the top of the address
  // space, a binary's low, gaps of up to 2^40 between clusters), so that a
  // bucket holds none, one or many symbols; each table is probed at every
  // symbol's edges, in its gaps, at random and at both ends of the range.
  uint64_t seed = 777;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return n ? (seed >> 11) % n : 0;
  };
  for (int round = 0; round < 300; ++round) {
    SymbolTable t;
    uint64_t at = round % 3 == 0 ? 0xffffffff80000000ULL : rnd(1 << 20);
    int n = static_cast<int>(rnd(round % 5 == 0 ? 3000 : 60));
    for (int i = 0; i < n; ++i) {
      uint64_t gap = rnd(8) == 0 ? rnd(uint64_t{1} << 40) : rnd(4096);
      if (at > UINT64_MAX - (uint64_t{1} << 41)) gap = rnd(64);
      at += gap;
      uint64_t size = rnd(3) == 0 ? 0 : rnd(gap + 64);
      t.Add(at, size, "s", SymbolBinding::kGlobal);
    }
    t.Finish(false);
    std::vector<uint64_t> probes = {0, 1, UINT64_MAX, UINT64_MAX - 1};
    for (const Symbol& s : t.symbols()) {
      for (uint64_t a : {s.start - 1, s.start, s.start + 1, s.end - 1, s.end,
                         s.end + 1, s.start + rnd(s.end - s.start + 1)}) {
        probes.push_back(a);
      }
    }
    for (int i = 0; i < 200; ++i) probes.push_back(rnd(UINT64_MAX));
    if (!t.symbols().empty()) {
      uint64_t lo = t.symbols().front().start;
      uint64_t span = t.symbols().back().end - lo;
      for (int i = 0; i < 200; ++i) probes.push_back(lo + rnd(span + 1));
    }
    for (uint64_t a : probes) REQUIRE(t.Find(a) == FindByWalk(t, a));
  }
}

}  // namespace
}  // namespace flamefold
