// Checks on symbol tables shared by the unit tests of the symbols stage.
#ifndef FLAMEFOLD_TEST_SYMBOL_CHECKS_H_
#define FLAMEFOLD_TEST_SYMBOL_CHECKS_H_

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "symbols/symbol_table.h"

namespace flamefold::testing {

/// The name `t` shows for `addr`, or "-" where no symbol holds it.
inline std::string NameAt(const SymbolTable& t, uint64_t addr) {
  const Symbol* s = t.Find(addr);
  return s ? t.Display(*s) : "-";
}

/// `a` and `b` hold the same symbols (bounds and names), in the same order.
inline void CheckSameSymbols(const SymbolTable& a, const SymbolTable& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const Symbol& x = a.symbols()[i];
    const Symbol& y = b.symbols()[i];
    CHECK(x.start == y.start);
    CHECK(x.end == y.end);
    CHECK(x.name == y.name);
  }
}

}  // namespace flamefold::testing

#endif  // FLAMEFOLD_TEST_SYMBOL_CHECKS_H_
