// ELF reading: the symbols and facts of a real binary (this test's own),
// and errors naming the file.
#include <doctest/doctest.h>

#include "symbols/elf_symbols.h"
#include "symbols/symbol_table.h"
#include "test_inputs.h"

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

TEST_CASE("ElfInfo's text_offset: .text's address minus its file offset") {
  // GNU ld places .text at its offset; lld (rustc's linker) a page past it:
  // dwarf-lld's .text is at address 0x3ac80, offset 0x39c80.
  ElfInfo info;
  std::string err;
  REQUIRE(ReadElfInfo(testing::TestFile("perf-data/dwarf-lld/root/tmp/ffdw/dwarf-lld"),
                      &info, &err));
  CHECK(info.text_offset == 0x1000);
  REQUIRE(ReadElfInfo(testing::TestFile("perf-data/dwarf-cxx/root/tmp/ffdw/dwarf"),
                      &info, &err));
  CHECK(info.text_offset == 0);
}

}  // namespace
}  // namespace flamefold
