#include "symbols/elf_symbols.h"

#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"
#include "io/file_source.h"


namespace flamefold {
namespace {

// An open ELF file, closed on scope exit.
class ElfHandle {
 public:
  // `mapped`: the file is mapped (for its symbols, read whole); else its
  // parts are read as asked for, which for a few headers costs less than
  // mapping a big binary, faulting its pages in and unmapping it (an
  // unmapping interrupts every core running one of our threads).
  bool Open(const std::string& path, std::string* err, bool mapped = true) {
    static const bool init = elf_version(EV_CURRENT) != EV_NONE;
    (void)init;
    fd_ = OpenFileFd(path, err);
    if (fd_ < 0) return false;
    elf_ = elf_begin(fd_, mapped ? ELF_C_READ_MMAP : ELF_C_READ, nullptr);
    if (!elf_ || elf_kind(elf_) != ELF_K_ELF) {
      *err = path + ": not an ELF file";
      return false;
    }
    return true;
  }
  ~ElfHandle() {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) close(fd_);
  }
  Elf* elf() const { return elf_; }

  // The section named `name`, or nullptr.
  Elf_Scn* Section(const char* name, GElf_Shdr* shdr) const {
    size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf_, &shstrndx) != 0) return nullptr;
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn;
         scn = elf_nextscn(elf_, scn)) {
      if (!gelf_getshdr(scn, shdr)) continue;
      const char* n = elf_strptr(elf_, shstrndx, shdr->sh_name);
      if (n && std::strcmp(n, name) == 0) return scn;
    }
    return nullptr;
  }
  Elf_Scn* SectionOfType(Elf64_Word type, GElf_Shdr* shdr) const {
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn;
         scn = elf_nextscn(elf_, scn)) {
      if (gelf_getshdr(scn, shdr) && shdr->sh_type == type) return scn;
    }
    return nullptr;
  }
  std::string SectionName(const GElf_Shdr& shdr) const {
    size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf_, &shstrndx) != 0) return "";
    const char* n = elf_strptr(elf_, shstrndx, shdr.sh_name);
    return n ? n : "";
  }

 private:
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

std::string ReadBuildId(const ElfHandle& h) {
  GElf_Shdr shdr;
  for (Elf_Scn* scn = elf_nextscn(h.elf(), nullptr); scn;
       scn = elf_nextscn(h.elf(), scn)) {
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data || !data->d_buf) continue;  // (a section without bytes)
    size_t off = 0, name_off = 0, desc_off = 0;
    GElf_Nhdr nhdr;
    while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
      const char* base = static_cast<const char*>(data->d_buf);
      if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
          std::memcmp(base + name_off, "GNU", 4) == 0) {
        return std::string(base + desc_off, nhdr.n_descsz);
      }
    }
  }
  return "";
}

// What the symbol loop asks of each section and load segment, read once up
// front rather than through libelf for every symbol, which would cost more
// than the rest of the loading.
struct SectionFacts {
  bool alloc = false;          // SHF_ALLOC
  bool text_or_data = false;   // its name holds "text" or "data"
};
struct ElfLayout {
  std::vector<SectionFacts> sections;  // by section index
  std::vector<GElf_Phdr> loads;        // PT_LOAD, in program header order
};

ElfLayout ReadLayout(const ElfHandle& syms, const ElfHandle& runtime) {
  ElfLayout out;
  size_t n = 0;
  if (elf_getshdrnum(syms.elf(), &n) == 0) {
    out.sections.resize(n);
    for (size_t i = 0; i < n; ++i) {
      GElf_Shdr shdr;
      Elf_Scn* sec = elf_getscn(syms.elf(), i);
      if (!sec || !gelf_getshdr(sec, &shdr)) continue;
      std::string name = syms.SectionName(shdr);
      out.sections[i].alloc = (shdr.sh_flags & SHF_ALLOC) != 0;
      out.sections[i].text_or_data = name.find("text") != std::string::npos ||
                                     name.find("data") != std::string::npos;
    }
  }
  size_t phnum = 0;
  if (elf_getphdrnum(runtime.elf(), &phnum) == 0) {
    for (size_t i = 0; i < phnum; ++i) {
      GElf_Phdr phdr;
      if (!gelf_getphdr(runtime.elf(), static_cast<int>(i), &phdr)) break;
      if (phdr.p_type == PT_LOAD) out.loads.push_back(phdr);
    }
  }
  return out;
}

// perf keeps functions, data objects and, in text or data sections,
// untyped labels.
bool Wanted(const GElf_Sym& sym, const ElfLayout& layout) {
  int type = GELF_ST_TYPE(sym.st_info);
  int vis = GELF_ST_VISIBILITY(sym.st_other);
  bool named = sym.st_name != 0 && sym.st_shndx != SHN_UNDEF;
  bool label = type == STT_NOTYPE && named && sym.st_shndx != SHN_ABS &&
               vis != STV_HIDDEN && vis != STV_INTERNAL;
  bool func = (type == STT_FUNC || type == STT_GNU_IFUNC) && named;
  bool object = type == STT_OBJECT && named;
  if (!label && !func && !object) return false;
  if (sym.st_shndx >= SHN_LORESERVE) return false;
  if (sym.st_shndx >= layout.sections.size()) return false;
  const SectionFacts& sec = layout.sections[sym.st_shndx];
  if (!sec.alloc) return false;
  return !label || sec.text_or_data;
}

// The load segment holding `vaddr`, as perf finds it (the first one).
const GElf_Phdr* LoadSegment(const ElfLayout& layout, uint64_t vaddr) {
  for (const GElf_Phdr& phdr : layout.loads) {
    uint64_t sz = std::max(phdr.p_memsz, phdr.p_filesz);
    if (sz && vaddr >= phdr.p_vaddr && vaddr < phdr.p_vaddr + sz) {
      return &phdr;
    }
  }
  return nullptr;
}

SymbolBinding Binding(const GElf_Sym& sym) {
  switch (GELF_ST_BIND(sym.st_info)) {
    case STB_GLOBAL: return SymbolBinding::kGlobal;
    case STB_WEAK: return SymbolBinding::kWeak;
    default: return SymbolBinding::kLocal;
  }
}

std::string_view NullableView(const char* s) {
  return s ? std::string_view(s) : std::string_view();
}

// A string table's bytes, read in place: the name at an offset is what
// elf_strptr gives, up to its NUL, or "" past the table's end or where no
// NUL ends it (elf_strptr: nullptr).
class StringTable {
 public:
  StringTable(const ElfHandle& h, size_t index) {
    GElf_Shdr shdr;
    Elf_Scn* scn = elf_getscn(h.elf(), index);
    if (!scn || !gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_STRTAB ||
        (shdr.sh_flags & SHF_COMPRESSED)) {
      return;  // gelf_getsym and elf_strptr, which know such tables
    }
    Elf_Data* data = elf_rawdata(scn, nullptr);
    if (!data || !data->d_buf) return;
    bytes_ = {static_cast<const char*>(data->d_buf), data->d_size};
    ok_ = true;
  }
  bool ok() const { return ok_; }
  std::string_view At(uint64_t offset) const {
    if (offset >= bytes_.size()) return {};
    const char* from = bytes_.data() + offset;
    const void* nul = std::memchr(from, '\0', bytes_.size() - offset);
    if (!nul) return {};
    return {from, static_cast<size_t>(static_cast<const char*>(nul) - from)};
  }

 private:
  std::string_view bytes_;
  bool ok_ = false;
};

void LoadSymtab(const ElfHandle& syms, const ElfHandle& runtime,
                Elf_Scn* scn, const GElf_Shdr& symtab, SymbolTable* table) {
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (!data || !data->d_buf || symtab.sh_entsize == 0) return;
  size_t count = symtab.sh_size / symtab.sh_entsize;
  // Room for them all at once: growing the vector step by step costs more
  // in page faults and moves than the symbols' own parsing.
  table->mutable_symbols()->reserve(table->size() + std::min<size_t>(count, 1u << 22));
  BigPrefaultCapacity(table->mutable_symbols());
  // The names go into one block the size of the string table (the pages
  // of names not kept are never touched).
  GElf_Shdr strtab;
  Elf_Scn* str_scn = elf_getscn(syms.elf(), symtab.sh_link);
  if (str_scn && gelf_getshdr(str_scn, &strtab)) {
    table->names()->Reserve(std::min<uint64_t>(strtab.sh_size, 64u << 20));
  }
  ElfLayout layout = ReadLayout(syms, runtime);
  StringTable names(syms, symtab.sh_link);
  // A 64-bit file's symbols, which libelf has in this machine's byte order,
  // are read in place rather than through gelf_getsym and elf_strptr, two
  // library calls a symbol.
  const bool in_place = gelf_getclass(syms.elf()) == ELFCLASS64 &&
                        data->d_type == ELF_T_SYM && names.ok() &&
                        data->d_size / sizeof(Elf64_Sym) >= count;
  // (Copied out: libelf may leave a hostile file's table unaligned.)
  static_assert(sizeof(GElf_Sym) == sizeof(Elf64_Sym));
  const char* raw = static_cast<const char*>(data->d_buf);
  for (size_t i = 0; i < count; ++i) {
    GElf_Sym sym;
    if (in_place) {
      std::memcpy(&sym, raw + i * sizeof(Elf64_Sym), sizeof(Elf64_Sym));
    } else if (!gelf_getsym(data, static_cast<int>(i), &sym)) {
      break;
    }
    if (!Wanted(sym, layout)) continue;
    std::string_view name =
        in_place ? names.At(sym.st_name)
                 : NullableView(elf_strptr(syms.elf(), symtab.sh_link,
                                           sym.st_name));
    if (name.empty()) continue;
    uint64_t value = sym.st_value;
    const GElf_Phdr* phdr = LoadSegment(layout, value);
    if (!phdr) continue;
    value -= phdr->p_vaddr - phdr->p_offset;
    table->Add(value, sym.st_size, name, Binding(sym), true);
  }
}

// "name@plt" for each .plt entry after the header, named in the order of
// the .rela.plt relocations, as perf 6.1 does (an IRELATIVE slot, with no
// symbol, is plain "@plt"; .plt.sec is not looked at).
void SynthesizePlt(const ElfHandle& h, SymbolTable* table) {
  GElf_Shdr dynsym_shdr, rel_shdr, plt_shdr;
  Elf_Scn* dynsym = h.SectionOfType(SHT_DYNSYM, &dynsym_shdr);
  if (!dynsym) return;
  Elf_Scn* rel = h.Section(".rela.plt", &rel_shdr);
  if (!rel) rel = h.Section(".rel.plt", &rel_shdr);
  if (!rel || rel_shdr.sh_entsize == 0) return;
  if (rel_shdr.sh_link != elf_ndxscn(dynsym)) return;
  if (!h.Section(".plt", &plt_shdr)) return;
  uint64_t entry = plt_shdr.sh_entsize;
  Elf_Data* rel_data = elf_getdata(rel, nullptr);
  Elf_Data* sym_data = elf_getdata(dynsym, nullptr);
  if (!rel_data || !sym_data || !rel_data->d_buf || !sym_data->d_buf) return;
  uint64_t at = plt_shdr.sh_offset + entry;
  size_t n = rel_shdr.sh_size / rel_shdr.sh_entsize;
  for (size_t i = 0; i < n; ++i) {
    uint64_t info = 0;
    if (rel_shdr.sh_type == SHT_RELA) {
      GElf_Rela r;
      if (!gelf_getrela(rel_data, static_cast<int>(i), &r)) break;
      info = r.r_info;
    } else {
      GElf_Rel r;
      if (!gelf_getrel(rel_data, static_cast<int>(i), &r)) break;
      info = r.r_info;
    }
    const char* name = nullptr;
    GElf_Sym sym;
    if (gelf_getsym(sym_data, static_cast<int>(GELF_R_SYM(info)), &sym)) {
      name = elf_strptr(h.elf(), dynsym_shdr.sh_link, sym.st_name);
    }
    // Demangled when shown (most entries never are).
    table->Add(at, entry, name ? name : "", SymbolBinding::kGlobal, true);
    table->mutable_symbols()->back().plt = true;
    at += entry;
  }
}

}  // namespace

std::string BuildIdHex(const std::string& raw) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

bool ReadElfInfo(const std::string& path, ElfInfo* info, std::string* err) {
  ElfHandle h;
  if (!h.Open(path, err, false)) return false;
  info->build_id = ReadBuildId(h);
  GElf_Shdr shdr;
  info->has_symtab = h.SectionOfType(SHT_SYMTAB, &shdr) != nullptr;
  info->has_dynsym = h.SectionOfType(SHT_DYNSYM, &shdr) != nullptr;
  info->text_offset = 0;
  if (h.Section(".text", &shdr)) {
    info->text_offset = shdr.sh_addr - shdr.sh_offset;
  }
  info->debuglink.clear();
  if (Elf_Scn* scn = h.Section(".gnu_debuglink", &shdr)) {
    Elf_Data* data = elf_getdata(scn, nullptr);
    // SHT_NOBITS: a size but no bytes (libelf's d_buf is null).
    if (data && data->d_buf && data->d_size > 0) {
      const char* p = static_cast<const char*>(data->d_buf);
      info->debuglink.assign(p, strnlen(p, data->d_size));
    }
  }
  return true;
}

bool LoadElfSymbols(const std::string& syms_path,
                    const std::string& runtime_path, SymbolTable* table,
                    std::string* err) {
  ElfHandle syms, runtime_own;
  if (!syms.Open(syms_path, err)) return false;
  const ElfHandle* runtime = &syms;
  if (runtime_path != syms_path) {
    if (!runtime_own.Open(runtime_path, err)) return false;
    runtime = &runtime_own;
  }
  GElf_Shdr shdr;
  Elf_Scn* scn = syms.SectionOfType(SHT_SYMTAB, &shdr);
  if (!scn) scn = syms.SectionOfType(SHT_DYNSYM, &shdr);
  if (scn) LoadSymtab(syms, *runtime, scn, shdr, table);
  // perf adds the PLT entries (when the file had symbols) after its
  // clean-ups, into the same tree.
  SymbolTable plt;
  if (table->size() > 0) SynthesizePlt(*runtime, &plt);
  table->ShareNames(plt);
  table->FinishAsPerfTree(plt.symbols());
  return true;
}

}  // namespace flamefold
