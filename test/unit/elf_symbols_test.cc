// ELF reading: the symbols and facts of a real binary (this test's own),
// and errors naming the file.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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

TEST_CASE("PLT entries are named after their symbols, demangled when shown") {
  // dyncxx-fp's .plt is at 0x1020, 16 bytes an entry, in .rela.plt's
  // order: printf, std::_Rb_tree_insert_and_rebalance, std::terminate, ...
  // (_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_).
  SymbolTable t;
  std::string err;
  std::string bin = testing::TestFile("perf-data/dyn-root/tmp/ffdyn/dyncxx-fp");
  REQUIRE(LoadElfSymbols(bin, bin, &t, &err));
  auto name_at = [&](uint64_t addr) {
    const Symbol* s = t.Find(addr);
    return s ? t.Display(*s) : "-";
  };
  // The first entry lies in _init's range, stretched to the next symbol
  // before the PLT entries came: perf's tree walk finds _init there.
  CHECK(name_at(0x1030) == "_init");
  CHECK(name_at(0x1040) == "std::_Rb_tree_insert_and_rebalance@plt");
  CHECK(name_at(0x1050) == "std::terminate@plt");
  CHECK(name_at(0x1080) == "std::thread::_State::~_State@plt");
  const Symbol* s = t.Find(0x1080);
  REQUIRE(s);
  CHECK(s->name == "_ZNSt6thread6_StateD2Ev");  // not demangled yet
}

// A 64-bit file's symbols are read in place, a 32-bit one's through
// libelf's conversions (gelf_getsym, elf_strptr): both give the same
// table for the same file. The 32-bit copy is objcopy's (elf32-x86-64).
TEST_CASE("ELF symbols read in place and through libelf agree") {
  std::string bin = testing::TestFile("perf-data/dyn-root/tmp/ffdyn/dyncxx-fp");
  char dir[] = "/tmp/ff-elf32-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string copy = std::string(dir) + "/dyncxx-fp32";
  std::string cmd = "objcopy -O elf32-x86-64 '" + bin + "' '" + copy +
                    "' 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) {
    MESSAGE("objcopy could not make a 32-bit copy: not checked");
    return;
  }
  ElfInfo info;
  std::string err;
  REQUIRE(ReadElfInfo(copy, &info, &err));
  SymbolTable in_place, converted;
  REQUIRE(LoadElfSymbols(bin, bin, &in_place, &err));
  REQUIRE(LoadElfSymbols(copy, copy, &converted, &err));
  // objcopy's 32-bit copy loses the PLT's relocations: its entries are
  // left out on both sides.
  auto listed = [](const SymbolTable& t) {
    std::vector<std::string> out;
    for (const Symbol& s : t.symbols()) {
      if (s.plt) continue;
      out.push_back(std::string(s.name) + " " + std::to_string(s.start) +
                    " " + std::to_string(s.end));
    }
    return out;
  };
  std::vector<std::string> a = listed(in_place), b = listed(converted);
  CHECK(a.size() > 20);
  CHECK(a == b);
  std::remove(copy.c_str());
  rmdir(dir);
}

// A .gnu_debuglink of type SHT_NOBITS (as in a fuzzed file) has a size but no
// bytes: there is no name to read, and no crash.
TEST_CASE("a debug link section without bytes reads as no link") {
  std::string bad = testing::TestFile("bad/elf-nobits-debuglink");
  ElfInfo info;
  std::string err;
  REQUIRE(ReadElfInfo(bad, &info, &err));
  CHECK(info.debuglink.empty());
  SymbolTable t;
  CHECK(LoadElfSymbols(bad, bad, &t, &err));
  std::string good = testing::TestFile("perf-data/root/tmp/ffrec/work-stripped");
  REQUIRE(ReadElfInfo(good, &info, &err));
  CHECK(!info.debuglink.empty());
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
