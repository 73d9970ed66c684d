// OwnVdso: finding a mapping in /proc/self/maps text, and this process's
// vDSO copied into a file that reads as the ELF object it is.
#include <doctest/doctest.h>

#include <string>

#include "symbols/elf_symbols.h"
#include "symbols/own_vdso.h"
#include "symbols/symbol_table.h"

using flamefold::FindMapping;

TEST_CASE("FindMapping reads the range of the line naming the mapping") {
  const char* maps =
      "55d0c3a00000-55d0c3a28000 r--p 00000000 08:01 1048 /usr/bin/bash\n"
      "7ffd1c5ee000-7ffd1c5f2000 r--p 00000000 00:00 0                  [vvar]\n"
      "7ffd1c5f2000-7ffd1c5f4000 r-xp 00000000 00:00 0                  [vdso]\n"
      "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]\n";
  uint64_t start = 0, end = 0;
  REQUIRE(FindMapping(maps, "[vdso]", &start, &end));
  CHECK(start == 0x7ffd1c5f2000);
  CHECK(end == 0x7ffd1c5f4000);
  REQUIRE(FindMapping(maps, "[vsyscall]", &start, &end));
  CHECK(start == 0xffffffffff600000);
  CHECK(end == 0xffffffffff601000);
  // Not a name at the end of a line, a path that merely ends alike, or a
  // last line without its '\n'.
  CHECK_FALSE(FindMapping(maps, "r-xp", &start, &end));
  CHECK_FALSE(FindMapping("1000-2000 r-xp 0 00:00 0 /tmp/x[vdso]\n", "[vdso]",
                          &start, &end));
  REQUIRE(FindMapping("1000-3000 r-xp 0 00:00 0 [vdso]", "[vdso]", &start,
                      &end));
  CHECK(end == 0x3000);
  // A broken range is passed over.
  CHECK_FALSE(FindMapping("3000-1000 r-xp 0 00:00 0 [vdso]\n", "[vdso]",
                          &start, &end));
  CHECK_FALSE(FindMapping("zz-1000 r-xp 0 00:00 0 [vdso]\n", "[vdso]", &start,
                          &end));
  CHECK_FALSE(FindMapping("", "[vdso]", &start, &end));
}

TEST_CASE("OwnVdsoFile is this process's vDSO, an ELF object with symbols") {
  const std::string& file = flamefold::OwnVdsoFile();
  REQUIRE_MESSAGE(!file.empty(), "no vDSO in this process?");
  CHECK(&flamefold::OwnVdsoFile() == &file);  // made once
  flamefold::ElfInfo info;
  std::string err;
  REQUIRE_MESSAGE(flamefold::ReadElfInfo(file, &info, &err), err);
  CHECK(info.has_dynsym);
  CHECK(!info.build_id.empty());  // what a recorded build id is checked against
  flamefold::SymbolTable table;
  REQUIRE_MESSAGE(flamefold::LoadElfSymbols(file, file, &table, &err), err);
  bool clock = false;
  for (const flamefold::Symbol& s : table.symbols()) {
    clock = clock || s.name.find("clock_gettime") != std::string_view::npos;
  }
  CHECK(clock);  // every Linux vDSO has clock_gettime
}
