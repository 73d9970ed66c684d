// Reading function symbols from ELF files with libelf, the way perf does:
// .symtab (else .dynsym) functions, objects and text labels, addresses
// moved from virtual addresses to file offsets by the program header that
// holds them, names demangled, and "name@plt" entries synthesized for the
// PLT of dynamically linked files.
#ifndef FLAMEFOLD_SYMBOLS_ELF_SYMBOLS_H_
#define FLAMEFOLD_SYMBOLS_ELF_SYMBOLS_H_

#include <string>

#include "symbols/symbol_table.h"

namespace flamefold {

struct ElfInfo {
  std::string build_id;   // raw bytes of NT_GNU_BUILD_ID; "" if none
  std::string debuglink;  // file name in .gnu_debuglink; "" if none
  bool has_symtab = false;
  bool has_dynsym = false;
  // .text's address minus its file offset (perf's dso->text_offset, read
  // from the object that places the symbols); 0 without a .text.
  uint64_t text_offset = 0;
};

/// Reads what identifies `path`. False (with `*err`) when it is not a
/// readable ELF file.
bool ReadElfInfo(const std::string& path, ElfInfo* info, std::string* err);

/// Loads the symbols of `syms_path` into `table` (finished as perf's tree,
/// see SymbolTable::FinishAsPerfTree), using the
/// program headers of `runtime_path` to place them and its .dynsym for PLT
/// entries. The two are the same file unless the symbols come from a
/// separate debug file.
bool LoadElfSymbols(const std::string& syms_path,
                    const std::string& runtime_path, SymbolTable* table,
                    std::string* err);

/// Hex form of a raw build id ("93ac61ec...").
std::string BuildIdHex(const std::string& raw);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_ELF_SYMBOLS_H_
