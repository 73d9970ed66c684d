// ELF reading: the symbols and facts of a real binary (this test's own),
// and errors naming the file.
#include <doctest/doctest.h>

#include "symbols/elf_symbols.h"
#include "symbols/symbol_table.h"

namespace flamefold {
namespace {

TEST_CASE("ELF symbols of the test binary itself") {
  ElfInfo info;
  std::string err;
  REQUIRE(ReadElfInfo("/proc/self/exe", &info, &err));
  CHECK((info.has_symtab || info.has_dynsym));
  SymbolTable t;
  REQUIRE(LoadElfSymbols("/proc/self/exe", "/proc/self/exe", &t, &err));
  bool found_main = false;
  for (const Symbol& s : t.symbols()) found_main |= s.name == "main";
  CHECK(found_main);
  CHECK(!ReadElfInfo("/nonexistent", &info, &err));
  CHECK(err.find("/nonexistent") == 0);
}

}  // namespace
}  // namespace flamefold
