// libFuzzer target for the ELF files whose symbols flamefold reads: the
// binaries and libraries a perf.data recording maps, their debug files and
// build-id cache copies, from the machine or from --symfs, any of which may
// be cut short or corrupt. The input is one file, read as both the symbols'
// file and the runtime one. Checks what LoadElfSymbols promises: a table
// whose starts ascend, and a look-up at each start that finds a symbol
// whose name can be shown; ReadElfInfo's build id no longer than the file.
// (A symbol may end before it starts: start + st_size wraps in u64, as in
// perf's symbol__new, and the table takes it as an overlap.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mem_file.h"
#include "symbols/elf_symbols.h"
#include "symbols/symbol_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  MemFile file(in);
  std::string err;
  flamefold::ElfInfo info;
  if (flamefold::ReadElfInfo(file.path(), &info, &err) &&
      info.build_id.size() > size) {
    abort();
  }
  flamefold::SymbolTable table;
  if (!flamefold::LoadElfSymbols(file.path(), file.path(), &table, &err)) {
    return 0;
  }
  const auto& syms = table.symbols();
  for (size_t i = 0; i < syms.size(); ++i) {
    const flamefold::Symbol& s = syms[i];
    if (i > 0 && s.start < syms[i - 1].start) abort();
    if (const flamefold::Symbol* found = table.Find(s.start)) {
      table.Display(*found);
    }
  }
  return 0;
}
