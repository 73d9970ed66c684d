// SourceLines: addr2line's records computed in-process (on the golden
// tests' binaries, found through $TESTDATA): the inlined function first,
// then its callers (as InlineChain prints them); "??" where nothing is
// known; answers cached; and addr2line -C's demangling.
#include <doctest/doctest.h>
#include <elf.h>

#include <cstring>
#include <string>
#include <vector>

#include "symbols/frame_inliner.h"
#include "symbols/source_lines.h"
#include "temp_file.h"
#include "test_inputs.h"

namespace flamefold {
namespace {

using testing::TempFile;
using testing::TestFile;

struct SymSpec {
  const char* name;
  unsigned char type, bind;
  uint64_t value, size;
  unsigned char vis = STV_DEFAULT;
};

// An x86-64 shared object without DWARF: one allocated section, .text at
// 0x1000 (0x1000 bytes, none in the file), and `syms` in its .symtab in
// that order (STT_FILE ones absolute, the others in .text).
std::string ElfWithSymbols(const std::vector<SymSpec>& syms) {
  std::string strtab(1, '\0'), symtab(sizeof(Elf64_Sym), '\0');
  size_t first_global = 0;
  for (const SymSpec& s : syms) {
    Elf64_Sym e{};
    e.st_name = static_cast<Elf64_Word>(strtab.size());
    strtab += s.name;
    strtab += '\0';
    e.st_info = ELF64_ST_INFO(s.bind, s.type);
    e.st_other = s.vis;
    e.st_shndx = s.type == STT_FILE ? SHN_ABS : 1;
    e.st_value = s.value;
    e.st_size = s.size;
    symtab.append(reinterpret_cast<const char*>(&e), sizeof e);
    if (s.bind == STB_LOCAL) first_global = symtab.size() / sizeof e;
  }
  const std::string shstrtab("\0.text\0.symtab\0.strtab\0.shstrtab\0", 34);
  std::string out(sizeof(Elf64_Ehdr), '\0');
  const size_t sym_at = out.size();
  out += symtab;
  const size_t str_at = out.size();
  out += strtab;
  const size_t shstr_at = out.size();
  out += shstrtab;
  out.resize((out.size() + 7) / 8 * 8, '\0');
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_DYN;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shoff = out.size();
  eh.e_shnum = 5;
  eh.e_shstrndx = 4;
  std::memcpy(out.data(), &eh, sizeof eh);
  Elf64_Shdr sh[5]{};
  sh[1] = {1, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 0x1000, 0x1000,
           0, 0, 16, 0};
  sh[2] = {7, SHT_SYMTAB, 0, 0, sym_at, symtab.size(), 3,
           static_cast<Elf64_Word>(first_global), 8, sizeof(Elf64_Sym)};
  sh[3] = {15, SHT_STRTAB, 0, 0, str_at, strtab.size(), 0, 0, 1, 0};
  sh[4] = {23, SHT_STRTAB, 0, 0, shstr_at, shstrtab.size(), 0, 0, 1, 0};
  out.append(reinterpret_cast<const char*>(sh), sizeof sh);
  return out;
}

TEST_CASE("addr2line's records: inlined function first, then its caller") {
  std::string lib = TestFile("perf-data/dwarf-shlib/root/tmp/ffdw/libtiny.so");
  SourceLines lines;
  // In tiny_hash, where rotl() was inlined (libtiny.c:7, called at :13).
  const SourceLookup* look = lines.Lookup(lib, 0x102a, false);
  REQUIRE(look != nullptr);
  CHECK(look->found);
  REQUIRE(look->records.size() == 2);
  CHECK(look->records[0].function == "rotl");
  CHECK(look->records[0].file == "/tmp/ffdw/libtiny.c");
  CHECK(look->records[0].line == 7);
  CHECK(look->records[1].function == "tiny_hash");
  CHECK(look->records[1].line == 13);
  CHECK(InlineChain(*look, false) == "tiny_hash;rotl");
  CHECK(InlineChain(*look, true) == "tiny_hash:libtiny.c:13;rotl:libtiny.c:7");
  // Cached: the same answer object.
  CHECK(lines.Lookup(lib, 0x102a, false) == look);
  // Outside every section: addr2line's "??" / "??:0".
  const SourceLookup* none = lines.Lookup(lib, 0x5000, false);
  REQUIRE(none != nullptr);
  CHECK_FALSE(none->found);
  CHECK(InlineChain(*none, false) == "??");
  CHECK(InlineChain(*none, true) == "??:??:0");
  // No such file: addr2line fails, nothing at all.
  CHECK(lines.Lookup(lib + ".missing", 0x102a, false) == nullptr);
}

TEST_CASE("a line-table row of line 0 gives its file, and line \"?\"") {
  // rustc marks compiler-made code with line 0; binutils 2.40 prints
  // "tiny.rs:?" there, not the ELF file symbol's name (a codegen unit's,
  // "tiny.aa3ef0f87614fec-cgu.0"), nor "??".
  std::string bin = TestFile("perf-data/rust-fp/root/tmp/ffrs/tiny-rust");
  SourceLines lines;
  const SourceLookup* look = lines.Lookup(bin, 0x1476, false);
  REQUIRE(look != nullptr);
  REQUIRE(look->found);
  REQUIRE(!look->records.empty());
  CHECK(look->records[0].file == "/tmp/ffrs/tiny.rs");
  CHECK(look->records[0].line == 0);
  CHECK(InlineChain(*look, true) ==
        "tiny::apply::<tiny::run::{closure#0}>:tiny.rs:?");
}

TEST_CASE("inlined functions whose ranges are a DW_FORM_rnglistx index") {
  // clang's DWARF 5 gives std::function<void (unsigned long)>::operator(),
  // inlined into shapes::RunCallbacks, its ranges by index; binutils 2.40
  // does not read that form, so the function holds no address for it
  // (0xbadd is RunCallbacks's alone), but it still calls what is inlined
  // into it where that has plain bounds (0xbad5: _M_empty, called by it).
  std::string bin = TestFile("perf-data/dwarf-clang/root/tmp/ffdw/dwarf-clang");
  SourceLines lines;
  const SourceLookup* own = lines.Lookup(bin, 0xbadd, false);
  REQUIRE(own != nullptr);
  REQUIRE(own->records.size() == 1);
  CHECK(DemangleFull(own->records[0].function) ==
        "shapes::RunCallbacks(std::function<void (unsigned long)> const&, int)");
  CHECK(own->records[0].line == 591);
  const SourceLookup* nested = lines.Lookup(bin, 0xbad5, false);
  REQUIRE(nested != nullptr);
  REQUIRE(nested->records.size() == 3);
  CHECK(DemangleFull(nested->records[1].function) ==
        "std::function<void (unsigned long)>::operator()(unsigned long) const");
  CHECK(nested->records[2].line == 51);
}

TEST_CASE("without DWARF, the function and file are binutils' ELF symbol's") {
  // binutils' elf_find_function: the highest start at or below the address
  // in the section, whatever its size; of equal starts the bigger, else the
  // first; no data symbols, nor hidden local labels; the STT_FILE symbol
  // before it names the file, for a global one only when no STT_FILE
  // came after the first symbol.
  TempFile elf(ElfWithSymbols({
      {"a.c", STT_FILE, STB_LOCAL, 0, 0},
      {"local_a", STT_FUNC, STB_LOCAL, 0x1000, 0x10},
      {"label", STT_NOTYPE, STB_LOCAL, 0x1008, 0, STV_HIDDEN},
      {"small", STT_FUNC, STB_LOCAL, 0x1100, 0x10},
      {"big", STT_FUNC, STB_LOCAL, 0x1100, 0x20},
      {"twin_first", STT_FUNC, STB_LOCAL, 0x1180, 0x8},
      {"twin_second", STT_FUNC, STB_LOCAL, 0x1180, 0x8},
      {"b.c", STT_FILE, STB_LOCAL, 0, 0},
      {"local_b", STT_FUNC, STB_LOCAL, 0x1300, 0x10},
      {"table", STT_OBJECT, STB_LOCAL, 0x1380, 0x40},
      {"global_fn", STT_FUNC, STB_GLOBAL, 0x1200, 0x10},
  }));
  SourceLines lines;
  auto at = [&](uint64_t addr) {
    const SourceLookup* look = lines.Lookup(elf.path, addr, false);
    REQUIRE(look != nullptr);
    if (!look->found) return std::string("??");
    REQUIRE(look->records.size() == 1);
    return look->records[0].function + "@" + look->records[0].file;
  };
  CHECK(at(0x1000) == "local_a@a.c");
  CHECK(at(0x100c) == "local_a@a.c");  // past the hidden label
  CHECK(at(0x10ff) == "local_a@a.c");  // past its size: still it
  CHECK(at(0x1104) == "big@a.c");
  CHECK(at(0x1190) == "twin_first@a.c");
  CHECK(at(0x1204) == "global_fn@??");  // a global after b.c: no file
  CHECK(at(0x1300) == "local_b@b.c");
  CHECK(at(0x1390) == "local_b@b.c");  // not the data symbol
  CHECK(at(0x0fff) == "??");            // before every section
  CHECK(at(0x1ff0) == "local_b@b.c");
}

TEST_CASE("addr2line -C demangles with the parameters") {
  CHECK(DemangleFull("_ZN12_GLOBAL__N_13FibEi") ==
        "(anonymous namespace)::Fib(int)");
  CHECK(DemangleFull("main") == "main");
  CHECK(DemangleFull("_Z3foov@@VERS_1") == "foo()@@VERS_1");
  CHECK(DemangleFull("_Znot_mangled") == "_Znot_mangled");
  // Rust first, as libiberty tries it (addr2line -C, not verbose): a
  // legacy name loses its hash (as C++ it would keep "::h0123..."), a v0
  // name reads as Rust. A Rust 1.95 binary's --inline --context folded
  // them mangled, or with the hash, before.
  CHECK(DemangleFull("_ZN4core3fmt5write17h0123456789abcdefE") ==
        "core::fmt::write");
  CHECK(DemangleFull("_RNvMs_NtNtCslNYArtu3iFV_5alloc3ffi5c_strNtB4_7CString"
                     "19__from_vec_unchecked") ==
        "<alloc::ffi::c_str::CString>::_from_vec_unchecked");
}

}  // namespace
}  // namespace flamefold
