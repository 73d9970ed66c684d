// SymbolTable: perf's clean-ups (size-less symbols end at the next one,
// one alias kept by perf's rules) and its tree walk where symbols overlap.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "symbols/kallsyms.h"
#include "symbols/perf_map.h"
#include "symbols/symbol_table.h"
#include "symbol_checks.h"
#include "temp_file.h"

namespace flamefold {
namespace {

std::string NameAt(const SymbolTable& t, uint64_t addr) {
  const Symbol* s = t.Find(addr);
  return s ? t.Display(*s) : "-";
}

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

// A random kallsyms file without modules, lines by address: runs of
// lines at one address (mixed types, bindings, underscores and lengths, so
// that each of KeepFirst's rules decides some), data symbols, '$' and
// empty names, malformed lines, no '\n' at the end.
std::string RandomKallsyms(uint64_t* seed, int lines) {
  auto rnd = [&](uint64_t n) {
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return n ? (*seed >> 11) % n : 0;
  };
  std::string text;
  uint64_t at = 0xffffffff81000000ULL;
  const char* types = "tTwWtTdDbr";
  for (int i = 0; i < lines; ++i) {
    if (rnd(4) != 0) at += rnd(3) == 0 ? rnd(8192) : 16 * (1 + rnd(40));
    char head[32];
    std::snprintf(head, sizeof head, "%016llx %c ",
                  static_cast<unsigned long long>(at), types[rnd(10)]);
    std::string name(rnd(4), '_');
    for (uint64_t k = 0, n = rnd(12); k <= n; ++k) {
      name += static_cast<char>('a' + rnd(26));
    }
    switch (rnd(40)) {
      case 0: text += "not a line\n"; continue;
      case 1: text += std::string(head).substr(0, 18) + "\n"; continue;
      case 2: name.clear(); break;
      case 3: name = "$x" + name; break;
    }
    text += head + name + "\n";
  }
  if (!text.empty() && rnd(2)) text.pop_back();
  return text;
}

TEST_CASE("a kallsyms file without modules, read lazily, finds what all its symbols made find") {
  uint64_t seed = 4242;
  for (int round = 0; round < 120; ++round) {
    int lines = round % 10 == 0 ? 3000 : 1 + round;
    testing::TempFile file(RandomKallsyms(&seed, lines));
    SymbolTable lazy, eager;
    std::vector<KallsymsModule> modules;
    std::string err;
    REQUIRE(LoadKallsyms(file.path, &lazy, &modules, &err));
    REQUIRE(LoadKallsyms(file.path, &eager, &modules, &err, true));
    REQUIRE(modules.empty());
    CHECK(lazy.lazy());
    eager.mutable_symbols();  // every symbol made, as CleanUp makes them
    REQUIRE_FALSE(eager.lazy());
    std::vector<uint64_t> probes = {0, UINT64_MAX, 0xffffffff80ffffffULL};
    for (const Symbol& s : eager.symbols()) {
      for (uint64_t a : {s.start - 1, s.start, s.start + 1, s.end - 1, s.end,
                         s.end + 4096, s.end + 8192}) {
        probes.push_back(a);
      }
    }
    for (uint64_t a : probes) {
      const Symbol* got = lazy.Find(a);
      const Symbol* want = eager.Find(a);
      REQUIRE((got == nullptr) == (want == nullptr));
      if (!got) continue;
      CHECK(got->start == want->start);
      CHECK(got->end == want->end);
      CHECK(got->name == want->name);
      CHECK(got->binding == want->binding);
      CHECK(lazy.Find(a) == got);  // made once, at one address
    }
    uint64_t lazy_start = 0, lazy_end = 0, start = 0, end = 0;
    REQUIRE(lazy.Range(&lazy_start, &lazy_end) == eager.Range(&start, &end));
    CHECK(lazy_start == start);
    CHECK(lazy_end == end);
    // All of them, when asked for.
    REQUIRE(lazy.size() == eager.size());
    for (size_t i = 0; i < eager.size(); ++i) {
      CHECK(lazy.symbols()[i].start == eager.symbols()[i].start);
      CHECK(lazy.symbols()[i].name == eager.symbols()[i].name);
    }
  }
}

TEST_CASE("a kallsyms file with modules or out of order is read whole") {
  testing::TempFile modules_file(
      "ffffffff81000000 T _text\n"
      "ffffffff81000100 t helper\n"
      "ffffffffc0001000 t ext4_iget\t[ext4]\n");
  SymbolTable core;
  std::vector<KallsymsModule> modules;
  std::string err;
  REQUIRE(LoadKallsyms(modules_file.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  REQUIRE(modules.size() == 1);
  CHECK(NameAt(core, 0xffffffff81000010) == "_text");
  testing::TempFile unsorted(
      "ffffffff81000100 t helper\n"
      "ffffffff81000000 T _text\n");
  modules.clear();
  REQUIRE(LoadKallsyms(unsorted.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  CHECK(NameAt(core, 0xffffffff81000010) == "_text");
  CHECK(NameAt(core, 0xffffffff81000110) == "helper");
  // A '[' in a name is a module's to perf's end fix-up: read whole too.
  testing::TempFile bracket("ffffffff81000000 T _text\nffffffff81000100 t a[1]\n");
  REQUIRE(LoadKallsyms(bracket.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  // A name too long for the index: the file is read whole, the name kept.
  std::string long_name(70000, 'x');
  testing::TempFile long_line("ffffffff81000000 T _text\nffffffff81000100 t " +
                              long_name + "\n");
  REQUIRE(LoadKallsyms(long_line.path, &core, &modules, &err));
  CHECK_FALSE(core.lazy());
  CHECK(NameAt(core, 0xffffffff81000110) == long_name);
  // A table changed after a lazy read becomes an ordinary one.
  testing::TempFile plain("ffffffff81000000 T _text\nffffffff81000100 t helper\n");
  REQUIRE(LoadKallsyms(plain.path, &core, &modules, &err));
  REQUIRE(core.lazy());
  core.Add(0xffffffff81000200, 0, "added", SymbolBinding::kGlobal);
  CHECK_FALSE(core.lazy());
  core.Finish(true);
  CHECK(NameAt(core, 0xffffffff81000110) == "helper");
  CHECK(NameAt(core, 0xffffffff81000210) == "added");
}

// A JIT map as perf 6.1 reads it (strtoull's hex, each line's last byte
// dropped): "0x" prefixes as the JDK writes them, white space and '+'
// before a number, a last line without '\n' losing a byte of its name,
// a NUL ending a name, and lines too short to hold a name passed over.
// Each case was checked against perf script on a node recording whose map
// was rewritten so.
TEST_CASE("LoadPerfMap reads START and SIZE as perf's strtoull does") {
  std::string map =
      "1000 100 plain name\n"
      "0x0000000000002000 0x0000000000000100 jdk form\n"
      "  0X3000 +0x80 spaced\n"
      "4000 10 ab\n"  // too short: len + 2 >= length
      "5000 10 nul";
  map += '\0';
  map += "hidden\n6000 20 last line";
  testing::TempFile file(map);
  SymbolTable t;
  std::string err;
  REQUIRE(LoadPerfMap(file.path, &t, &err));
  CHECK(NameAt(t, 0x10ff) == "plain name");
  CHECK(NameAt(t, 0x2000) == "jdk form");
  CHECK(NameAt(t, 0x20ff) == "jdk form");
  CHECK(NameAt(t, 0x2100) == "-");
  CHECK(NameAt(t, 0x307f) == "spaced");
  CHECK(NameAt(t, 0x4000) == "-");
  CHECK(NameAt(t, 0x5000) == "nul");
  CHECK(NameAt(t, 0x6000) == "last lin");
}

}  // namespace
}  // namespace flamefold
