// Symbol aliases: which of the symbols at one address perf keeps, and the
// choices that wait until a symbol is shown.
#include <doctest/doctest.h>

#include <vector>

#include "symbols/name_store.h"
#include "symbols/symbol.h"
#include "symbols/symbol_aliases.h"

namespace flamefold {
namespace {

Symbol Sym(uint64_t size, SymbolBinding binding, const char* name,
           bool mangled = false) {
  return Symbol{0x40, 0x40 + size, name, binding, mangled};
}

TEST_CASE("perf asks for a size, then not weak, then global, then the names") {
  auto g = SymbolBinding::kGlobal, l = SymbolBinding::kLocal,
       w = SymbolBinding::kWeak;
  CHECK(ChooseByAttributes(Sym(0, g, "a"), Sym(8, w, "b")) ==
        AliasChoice::kSecond);
  CHECK(ChooseByAttributes(Sym(8, w, "a"), Sym(8, l, "b")) ==
        AliasChoice::kSecond);
  CHECK(ChooseByAttributes(Sym(8, l, "a"), Sym(8, w, "b")) ==
        AliasChoice::kFirst);
  CHECK(ChooseByAttributes(Sym(8, g, "a"), Sym(8, l, "b")) ==
        AliasChoice::kFirst);
  CHECK(ChooseByAttributes(Sym(8, l, "a"), Sym(8, l, "b")) ==
        AliasChoice::kByName);
  // By names: fewer leading underscores, then the longer, else the first.
  CHECK(FirstByName("write", "__GI_write"));
  CHECK_FALSE(FirstByName("__libc_write", "write"));
  CHECK(FirstByName("__GI___libc_write", "__GI___write"));
  CHECK_FALSE(FirstByName("ab", "abc"));
  CHECK(FirstByName("abc", "xyz"));
}

TEST_CASE("KeepFirst demangles only where the names decide") {
  NameStore names;
  Symbol a = Sym(8, SymbolBinding::kGlobal, "_ZN1AC1Ev", true);
  Symbol b = Sym(8, SymbolBinding::kWeak, "_ZN4AAAA1fEv", true);
  CHECK(KeepFirst(&a, &b, &names));  // by binding: names left as they are
  CHECK(a.mangled);
  b.binding = SymbolBinding::kGlobal;
  CHECK_FALSE(KeepFirst(&a, &b, &names));  // "AAAA::f" is the longer
  CHECK(a.name == "A::A");
  CHECK(b.name == "AAAA::f");
  CHECK_FALSE(b.mangled);
}

TEST_CASE("AliasGroups keeps a choice by mangled names until it is shown") {
  NameStore names;
  AliasGroups groups;
  Symbol kept = Sym(8, SymbolBinding::kGlobal, "_ZN1AC2Ev", true);
  groups.Defer(&kept, Sym(8, SymbolBinding::kGlobal, "_ZN1AC1Ev", true),
               &names);
  groups.Defer(&kept, Sym(8, SymbolBinding::kGlobal, "_ZN3__a1fEv", true),
               &names);
  groups.Defer(&kept, Sym(8, SymbolBinding::kGlobal, "_ZN4AAAA1fEv", true),
               &names);
  REQUIRE(kept.alias_group == 1);
  CHECK(kept.name == "_ZN1AC2Ev");  // the first member's, not demangled
  CHECK(groups.Chosen(kept) == "AAAA::f");
  std::vector<Symbol> syms = {kept};
  groups.ResolveAll(syms, &names);
  CHECK(groups.empty());
  CHECK(syms[0].name == "AAAA::f");
  CHECK(syms[0].alias_group == 0);
  CHECK_FALSE(syms[0].mangled);
  // Another end decides where the symbol ends: chosen at once.
  Symbol now = Sym(8, SymbolBinding::kGlobal, "_ZN1AC2Ev", true);
  groups.Defer(&now, Sym(16, SymbolBinding::kGlobal, "_ZN2AA1fEv", true),
               &names);
  CHECK(groups.empty());
  CHECK(now.alias_group == 0);
  CHECK(now.name == "AA::f");
  CHECK(now.end == 0x50);
}

}  // namespace
}  // namespace flamefold
