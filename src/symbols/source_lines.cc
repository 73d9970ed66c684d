#include "symbols/source_lines.h"

#include "symbols/symbol_demangle.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "io/file_source.h"
#include "symbols/elf_symbols.h"

namespace flamefold {
namespace {

struct ElfSym {
  uint64_t value = 0, size = 0;
  uint32_t shndx = 0;
  uint8_t type = 0, bind = 0, vis = 0;
  std::string name;
};

struct Section {
  uint64_t addr = 0, size = 0;
  uint32_t index = 0;
};

// A function DIE with its address ranges, for the per-CU index.
struct FunctionRange {
  uint64_t low = 0, high = 0;
  Dwarf_Die die;
};

struct CuIndex {
  Dwarf_Die cu;
  bool mangled_language = true;  // C++ and others: names need linkage names
  bool built = false;
  std::vector<FunctionRange> functions;  // sorted by low
  // Binutils5File's rows, by index in the CU's line table: true where
  // addr2line names file entry 0 instead of the row's entry 1.
  bool file0_built = false;
  std::vector<bool> file0_rows;
};

// Languages whose DW_AT_name is the linkage name (binutils' non_mangled).
bool NonMangled(int lang) {
  switch (lang) {
    case DW_LANG_C89: case DW_LANG_C: case DW_LANG_Ada83:
    case DW_LANG_Cobol74: case DW_LANG_Cobol85: case DW_LANG_Fortran77:
    case DW_LANG_Pascal83: case DW_LANG_C99: case DW_LANG_Ada95:
    case DW_LANG_PLI: case DW_LANG_UPC: case DW_LANG_C11:
    case DW_LANG_Mips_Assembler:
      return true;
    default:
      return false;
  }
}

const char* StringAttr(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  if (!dwarf_attr_integrate(die, name, &attr)) return nullptr;
  return dwarf_formstring(&attr);
}

// The name binutils gives a function DIE, and whether it is a linkage one.
std::string DieName(Dwarf_Die* die, bool non_mangled, bool* linkage) {
  const char* s = StringAttr(die, DW_AT_linkage_name);
  if (!s) s = StringAttr(die, DW_AT_MIPS_linkage_name);
  if (s) {
    *linkage = true;
    return s;
  }
  s = StringAttr(die, DW_AT_name);
  *linkage = s && non_mangled;
  return s ? s : "";
}

// The index of `line` among `lines` (sorted by address), or n.
size_t LineIndex(Dwarf_Lines* lines, size_t n, Dwarf_Line* line) {
  Dwarf_Addr want = 0;
  dwarf_lineaddr(line, &want);
  size_t lo = 0, hi = n;
  while (lo < hi) {  // the first row at or above `want`
    size_t mid = lo + (hi - lo) / 2;
    Dwarf_Addr a = 0;
    dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
    if (a < want) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < n; ++i) {
    Dwarf_Line* l = dwarf_onesrcline(lines, i);
    if (l == line) return i;
    Dwarf_Addr a = 0;
    dwarf_lineaddr(l, &a);
    if (a != want) break;
  }
  return n;
}

// The file binutils 2.40 names for `line`. In a DWARF 5 line table it
// starts each sequence with file entry 0 where DWARF 5 says 1, so the rows
// of a sequence before its first change of file show entry 0's name:
// glibc's
//   File Name Table: 0 libc-start.c, 1 libc_start_call_main.h, 2 libc-start.c
//   [0x00000465]  Advance Line by 16 to 74   (no file set before)
// is "libc_start_call_main.h:74" to libdw and readelf, "libc-start.c:74"
// to addr2line. (An explicit DW_LNS_set_file 1 at the start of a sequence
// looks the same as none in the rows; gcc does not emit one.) nullptr:
// the row's own file. The rows are marked once per CU.
const char* Binutils5File(CuIndex* cu, Dwarf_Line* line) {
  Dwarf_Files* files = nullptr;
  size_t idx = 0;
  if (dwarf_line_file(line, &files, &idx) != 0 || idx != 1) return nullptr;
  const char* file0 = dwarf_filesrc(files, 0, nullptr, nullptr);
  const char* file1 = dwarf_filesrc(files, 1, nullptr, nullptr);
  if (!file0 || !file1 || std::strcmp(file0, file1) == 0) return nullptr;
  Dwarf_Lines* lines = nullptr;
  size_t n = 0;
  if (dwarf_getsrclines(&cu->cu, &lines, &n) != 0) return nullptr;
  if (!cu->file0_built) {
    cu->file0_built = true;
    Dwarf_Half version = 0;
    if (dwarf_cu_info(cu->cu.cu, &version, nullptr, nullptr, nullptr,
                      nullptr, nullptr, nullptr) == 0 && version >= 5) {
      cu->file0_rows.assign(n, false);
      bool unset = true;  // no file change yet in this sequence
      for (size_t i = 0; i < n; ++i) {
        Dwarf_Line* l = dwarf_onesrcline(lines, i);
        Dwarf_Files* f = nullptr;
        size_t k = 0;
        if (dwarf_line_file(l, &f, &k) != 0 || k != 1) unset = false;
        cu->file0_rows[i] = unset;
        bool end = false;
        if (dwarf_lineendsequence(l, &end) == 0 && end) unset = true;
      }
    }
  }
  size_t at = LineIndex(lines, n, line);
  return at < cu->file0_rows.size() && cu->file0_rows[at] ? file0 : nullptr;
}

}  // namespace

struct SourceFile::Impl {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf* dwarf = nullptr;
  std::vector<Section> sections;
  std::vector<ElfSym> syms;  // .symtab, else .dynsym, in file order
  std::vector<CuIndex> cus;
  bool cus_listed = false;
  // The CUs' address ranges, by low address, and the highest end among
  // each range and those before it: CuOf's index.
  struct CuRange {
    uint64_t low, high;
    uint32_t cu;  // in cus
  };
  std::vector<CuRange> cu_ranges;
  std::vector<uint64_t> cu_reach;

  ~Impl() {
    if (dwarf) dwarf_end(dwarf);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }

  void ReadSections() {
    Elf_Scn* symtab = nullptr;
    Elf_Scn* dynsym = nullptr;
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn;
         scn = elf_nextscn(elf, scn)) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh)) continue;
      if (sh.sh_flags & SHF_ALLOC) {
        sections.push_back({sh.sh_addr, sh.sh_size,
                            static_cast<uint32_t>(elf_ndxscn(scn))});
      }
      if (sh.sh_type == SHT_SYMTAB && !symtab) symtab = scn;
      if (sh.sh_type == SHT_DYNSYM && !dynsym) dynsym = scn;
    }
    ReadSymbols(symtab ? symtab : dynsym);
    IndexFunctions();
  }

  void ReadSymbols(Elf_Scn* scn) {
    if (!scn) return;
    GElf_Shdr sh;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!gelf_getshdr(scn, &sh) || !data || !data->d_buf ||
        sh.sh_entsize == 0) {
      return;
    }
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 1; i < n; ++i) {
      GElf_Sym s;
      if (!gelf_getsym(data, static_cast<int>(i), &s)) break;
      const char* name = elf_strptr(elf, sh.sh_link, s.st_name);
      ElfSym e;
      e.value = s.st_value;
      e.size = s.st_size;
      e.shndx = s.st_shndx;
      e.type = GELF_ST_TYPE(s.st_info);
      e.bind = GELF_ST_BIND(s.st_info);
      e.vis = GELF_ST_VISIBILITY(s.st_other);
      e.name = name ? name : "";
      syms.push_back(std::move(e));
    }
  }

  const Section* SectionOf(uint64_t addr) const {
    for (const Section& s : sections) {
      if (addr >= s.addr && addr - s.addr < s.size) return &s;
    }
    return nullptr;
  }

  // binutils' elf_find_function: the function-like symbol of the section
  // with the highest start at or below `addr` (bigger size on a tie, else
  // the first seen; its size is not checked), and the STT_FILE symbol
  // before it as the file name (for a global symbol only when no other
  // symbol came between the file symbol and the first symbol). binutils walks
  // the whole table for each address; that walk, over the tens of thousands
  // of symbols of a debug file such as python3's, would be a large part of a
  // --call-graph dwarf replay, so the answers per start are made once
  // (IndexFunctions) and looked up.
  const ElfSym* ElfFunction(const Section& sec, uint64_t addr,
                            std::string* file_name, bool* has_file) const {
    auto after = std::upper_bound(
        functions.begin(), functions.end(), std::make_pair(sec.index, addr),
        [](const std::pair<uint32_t, uint64_t>& key, const Function& f) {
          return key.first != f.shndx ? key.first < f.shndx
                                      : key.second < f.sym->value;
        });
    if (after == functions.begin()) return nullptr;
    const Function& f = *(after - 1);
    if (f.shndx != sec.index) return nullptr;
    *has_file = f.file != nullptr;
    if (f.file) *file_name = f.file->name;
    return f.sym;
  }

  // A symbol ElfFunction may answer, with the STT_FILE symbol it names
  // as its file (nullptr: none).
  struct Function {
    uint32_t shndx;
    const ElfSym* sym;
    const ElfSym* file;
  };
  // By section, then start: of the symbols of one start, the one binutils
  // keeps (the first of the biggest size).
  std::vector<Function> functions;

  // Fills `functions` from `syms`, walking the table as binutils does for
  // each address: the file before each symbol, and whether one came after
  // the first symbol.
  void IndexFunctions() {
    bool seen_symbol = false, file_after_symbol = false;
    const ElfSym* file = nullptr;
    std::vector<Function> all;
    for (const ElfSym& s : syms) {
      if (s.type == STT_FILE) {
        file = &s;
        if (seen_symbol) file_after_symbol = true;
        continue;
      }
      if (s.type == STT_SECTION) continue;
      seen_symbol = true;
      if (s.type == STT_OBJECT || s.type == STT_TLS) continue;
      if (s.size == 0 && s.bind == STB_LOCAL && s.type == STT_NOTYPE &&
          s.vis == STV_HIDDEN) {
        continue;
      }
      bool named = file && (s.bind == STB_LOCAL || !file_after_symbol);
      all.push_back({s.shndx, &s, named ? file : nullptr});
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Function& a, const Function& b) {
                       return a.shndx != b.shndx ? a.shndx < b.shndx
                                                 : a.sym->value < b.sym->value;
                     });
    auto size = [](const Function& f) { return f.sym->size ? f.sym->size : 1; };
    for (size_t i = 0; i < all.size();) {
      size_t best = i, j = i + 1;
      for (; j < all.size() && all[j].shndx == all[i].shndx &&
             all[j].sym->value == all[i].sym->value;
           ++j) {
        if (size(all[j]) > size(all[best])) best = j;
      }
      functions.push_back(all[best]);
      i = j;
    }
  }

  void ListCus() {
    cus_listed = true;
    if (!dwarf) return;
    Dwarf_Off off = 0, next = 0;
    size_t hsize = 0;
    while (dwarf_nextcu(dwarf, off, &next, &hsize, nullptr, nullptr,
                        nullptr) == 0) {
      CuIndex cu;
      if (dwarf_offdie(dwarf, off + hsize, &cu.cu)) {
        cu.mangled_language = !NonMangled(dwarf_srclang(&cu.cu));
        cus.push_back(cu);
      }
      off = next;
    }
  }

  // Whether `die`'s ranges are a DW_FORM_rnglistx index (clang's DWARF 5):
  // binutils 2.40 does not read that form as a number, so it gives the
  // function no address ranges at all (and addr2line never names an
  // inlined function so placed).
  static bool IndexedRanges(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    return dwarf_attr(die, DW_AT_ranges, &attr) != nullptr &&
           dwarf_whatform(&attr) == DW_FORM_rnglistx;
  }

  static void AddRanges(Dwarf_Die* die, std::vector<FunctionRange>* out) {
    if (IndexedRanges(die)) return;
    Dwarf_Addr base = 0, start = 0, end = 0;
    ptrdiff_t off = 0;
    while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
      if (end > start) out->push_back({start, end, *die});
    }
  }

  // Every subprogram with code in the CU, wherever it is nested
  // (namespaces, classes, local classes inside functions).
  static void Collect(Dwarf_Die* parent, std::vector<FunctionRange>* out,
                      int depth) {
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(parent, &child) != 0) return;
    do {
      int tag = dwarf_tag(&child);
      if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point) {
        AddRanges(&child, out);
      }
      if (dwarf_haschildren(&child) && tag != DW_TAG_inlined_subroutine &&
          tag != DW_TAG_formal_parameter && tag != DW_TAG_variable) {
        Collect(&child, out, depth + 1);
      }
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  // The ranges of every CU, sorted, so that finding an address's CU does
  // not ask each CU in turn (dwarf_haspc walks the same ranges).
  void IndexCuRanges() {
    for (uint32_t i = 0; i < cus.size(); ++i) {
      Dwarf_Addr base = 0, start = 0, end = 0;
      ptrdiff_t off = 0;
      while ((off = dwarf_ranges(&cus[i].cu, off, &base, &start, &end)) > 0) {
        if (end > start) cu_ranges.push_back({start, end, i});
      }
    }
    std::stable_sort(cu_ranges.begin(), cu_ranges.end(),
                     [](const CuRange& a, const CuRange& b) {
                       return a.low < b.low;
                     });
    uint64_t reach = 0;
    for (const CuRange& r : cu_ranges) {
      reach = std::max(reach, r.high);
      cu_reach.push_back(reach);
    }
  }

  // The first CU, in the order of .debug_info, with a range holding
  // `addr` (where ranges overlap, the one met
  // first, as a walk over the CUs would).
  void IndexCus() {
    if (cus_listed) return;
    ListCus();
    IndexCuRanges();
  }

  CuIndex* CuOf(uint64_t addr) {
    IndexCus();
    auto above = std::upper_bound(
        cu_ranges.begin(), cu_ranges.end(), addr,
        [](uint64_t a, const CuRange& r) { return a < r.low; });
    uint32_t best = UINT32_MAX;
    for (size_t j = static_cast<size_t>(above - cu_ranges.begin());
         j-- > 0 && cu_reach[j] > addr;) {
      if (cu_ranges[j].high > addr) best = std::min(best, cu_ranges[j].cu);
    }
    return best == UINT32_MAX ? nullptr : &cus[best];
  }

  // The innermost chain of function DIEs holding `addr`: inlined
  // subroutines from the innermost out, then the subprogram.
  bool Chain(CuIndex* cu, uint64_t addr, std::vector<Dwarf_Die>* chain) {
    if (!cu->built) {
      cu->built = true;
      Collect(&cu->cu, &cu->functions, 0);
      std::sort(cu->functions.begin(), cu->functions.end(),
                [](const FunctionRange& a, const FunctionRange& b) {
                  return a.low < b.low;
                });
    }
    const FunctionRange* best = nullptr;
    for (const FunctionRange& f : cu->functions) {
      if (f.low > addr) break;
      if (addr < f.high &&
          (!best || f.high - f.low <= best->high - best->low)) {
        best = &f;
      }
    }
    if (!best) return false;
    Dwarf_Die die = best->die;
    std::vector<Dwarf_Die> outer{die};
    // Down through lexical blocks and inlined subroutines. The innermost
    // function is the deepest inlined subroutine whose ranges binutils
    // reads (IndexedRanges); its callers are the DIEs it nests in, those
    // whose ranges it does not read included.
    size_t innermost = 1;
    for (int depth = 0; depth < 256; ++depth) {
      Dwarf_Die child;
      bool deeper = false;
      if (dwarf_child(&die, &child) == 0) {
        do {
          int tag = dwarf_tag(&child);
          if ((tag == DW_TAG_inlined_subroutine ||
               tag == DW_TAG_lexical_block) &&
              dwarf_haspc(&child, addr) == 1) {
            if (tag == DW_TAG_inlined_subroutine) {
              outer.push_back(child);
              if (!IndexedRanges(&child)) innermost = outer.size();
            }
            die = child;
            deeper = true;
            break;
          }
        } while (dwarf_siblingof(&child, &child) == 0);
      }
      if (!deeper) break;
    }
    outer.resize(innermost);
    chain->assign(outer.rbegin(), outer.rend());
    return true;
  }
};

namespace {

bool HasSection(Elf* elf, const char* wanted) {
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return false;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn;
       scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS) continue;
    const char* name = elf_strptr(elf, shstrndx, sh.sh_name);
    if (name && std::strcmp(name, wanted) == 0) return true;
  }
  return false;
}

bool IsFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Where binutils finds the DWARF of a file without any: by build id under
// /usr/lib/debug, then by .gnu_debuglink next to the file, in .debug/ and
// under /usr/lib/debug (all under `root`, our --symfs).
std::string SeparateDebugFile(const std::string& path,
                              const std::string& root) {
  ElfInfo info;
  std::string err;
  if (!ReadElfInfo(path, &info, &err)) return "";
  std::string hex = BuildIdHex(info.build_id);
  if (hex.size() > 2) {
    std::string f = root + "/usr/lib/debug/.build-id/" + hex.substr(0, 2) +
                    "/" + hex.substr(2) + ".debug";
    if (IsFile(f)) return f;
  }
  if (info.debuglink.empty()) return "";
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  std::string real_dir = dir;  // the directory as the program knew it
  if (!root.empty() && real_dir.compare(0, root.size(), root) == 0) {
    real_dir = real_dir.substr(root.size());
  }
  for (const std::string& f :
       {dir + "/" + info.debuglink, dir + "/.debug/" + info.debuglink,
        root + "/usr/lib/debug" + real_dir + "/" + info.debuglink}) {
    if (f != path && IsFile(f)) return f;
  }
  return "";
}

}  // namespace

std::unique_ptr<SourceFile> SourceFile::Open(const std::string& path,
                                             const std::string& debug_root) {
  static bool init = (elf_version(EV_CURRENT), true);
  (void)init;
  auto impl = std::make_unique<Impl>();
  // Only regular files, as binutils ("is not an ordinary file"): a path
  // named by a perf.data (perf --srcline reads unresolved modules at their
  // recorded path) may be a FIFO or a device, which must not block us.
  std::string err;
  impl->fd = OpenFileFd(path, &err, nullptr, OpenFor::kRegularFile);
  if (impl->fd < 0) return nullptr;
  impl->elf = elf_begin(impl->fd, ELF_C_READ_MMAP, nullptr);
  if (!impl->elf || elf_kind(impl->elf) != ELF_K_ELF) return nullptr;
  if (!HasSection(impl->elf, ".debug_info")) {
    std::string debug = SeparateDebugFile(path, debug_root);
    if (!debug.empty()) {
      std::unique_ptr<SourceFile> f = Open(debug, "\n");  // no further hop
      if (f) return f;
    }
  }
  std::unique_ptr<SourceFile> f(new SourceFile());
  impl->ReadSections();
  impl->dwarf = dwarf_begin_elf(impl->elf, DWARF_C_READ, nullptr);
  f->impl_ = std::move(impl);
  return f;
}

SourceFile::~SourceFile() = default;

namespace {
uint64_t FirstLow(Dwarf_Die* die) {
  Dwarf_Addr base = 0, start = 0, end = 0;
  return dwarf_ranges(die, 0, &base, &start, &end) > 0 ? start : UINT64_MAX;
}
}  // namespace

void SourceFile::Lookup(uint64_t addr, SourceLookup* out, bool stateful,
                        size_t max_records) {
  out->found = false;
  out->records.clear();
  Impl& m = *impl_;
  const Section* sec = m.SectionOf(addr);
  if (!sec) return;
  std::string elf_file;
  bool elf_has_file = false;
  const ElfSym* elf_fn = m.ElfFunction(*sec, addr, &elf_file, &elf_has_file);
  SourceRecord first;
  bool dwarf_found = false;
  std::vector<Dwarf_Die> chain;
  CuIndex* cu = m.dwarf ? m.CuOf(addr) : nullptr;
  if (cu) {
    if (Dwarf_Line* line = dwarf_getsrc_die(&cu->cu, addr)) {
      int lineno = 0;
      dwarf_lineno(line, &lineno);
      const char* src = Binutils5File(cu, line);
      if (!src) src = dwarf_linesrc(line, nullptr, nullptr);
      if (src && lineno > 0) {
        first.file = src;
        first.line = static_cast<uint32_t>(lineno);
        unsigned int disc = 0;
        dwarf_linediscriminator(line, &disc);
        first.discriminator = disc;
        dwarf_found = true;
      } else if (src) {
        // A row of line 0 (code of no line, as rustc emits): binutils
        // prints its file with line "?" ("mod.rs:?").
        first.file = src;
      }
    }
    if (m.Chain(cu, addr, &chain)) dwarf_found = true;
  }
  if (!dwarf_found && !elf_fn) return;
  out->found = true;
  // No row for the address: the ELF's file symbol names the file.
  if (first.line == 0 && first.file == "??" && elf_has_file) {
    first.file = elf_file;
  }
  bool non_mangled = cu && !cu->mangled_language;
  if (!chain.empty()) {
    bool linkage = false;
    first.function = DieName(&chain[0], non_mangled, &linkage);
    // binutils names a function without a linkage name after the ELF
    // symbol at the address; a long-running addr2line then remembers the
    // DWARF name, or the ELF one when that symbol starts where the
    // function's first range does.
    if (!linkage) {
      Dwarf_Off off = dwarf_dieoffset(&chain[0]);
      auto it = stateful ? renamed_.find(off) : renamed_.end();
      if (it != renamed_.end()) {
        first.function = it->second;
      } else {
        std::string dwarf_name = first.function;
        if (elf_fn) first.function = elf_fn->name;
        if (stateful) {
          renamed_[off] = elf_fn && elf_fn->value == FirstLow(&chain[0])
                              ? elf_fn->name
                              : dwarf_name;
        }
      }
    }
  } else if (elf_fn) {
    first.function = elf_fn->name;
  }
  out->records.push_back(std::move(first));
  // Each inlined subroutine: the function it sits in, at its call site.
  for (size_t i = 0; i + 1 < chain.size() &&
                     out->records.size() < max_records; ++i) {
    SourceRecord r;
    bool linkage = false;
    r.function = DieName(&chain[i + 1], non_mangled, &linkage);
    if (stateful) {
      auto it = renamed_.find(dwarf_dieoffset(&chain[i + 1]));
      if (it != renamed_.end()) r.function = it->second;
    }
    Dwarf_Attribute attr;
    Dwarf_Word value = 0;
    if (dwarf_attr(&chain[i], DW_AT_call_line, &attr) &&
        dwarf_formudata(&attr, &value) == 0) {
      r.line = static_cast<uint32_t>(value);
    }
    if (dwarf_attr(&chain[i], DW_AT_call_file, &attr) &&
        dwarf_formudata(&attr, &value) == 0) {
      Dwarf_Files* files = nullptr;
      size_t nfiles = 0;
      if (dwarf_getsrcfiles(&cu->cu, &files, &nfiles) == 0 && value < nfiles) {
        const char* name = dwarf_filesrc(files, value, nullptr, nullptr);
        if (name) r.file = name;
      }
    }
    out->records.push_back(std::move(r));
  }
}

bool SourceFile::NmAddress(const std::string& name, uint64_t* addr) const {
  // nm lists defined symbols sorted by name; of equal names, by address.
  bool found = false;
  for (const ElfSym& s : impl_->syms) {
    if (s.name != name || s.shndx == SHN_UNDEF || s.type == STT_FILE ||
        s.type == STT_SECTION) {
      continue;
    }
    if (!found || s.value < *addr) *addr = s.value;
    found = true;
  }
  return found;
}

// The entry of `path`, its file opened at the first call.
SourceLines::Entry* SourceLines::Opened(const std::string& path) {
  auto [it, added] = files_.try_emplace(path);
  if (added) it->second.file = SourceFile::Open(path, debug_root_);
  return &it->second;
}

SourceFile* SourceLines::File(const std::string& path) {
  return Opened(path)->file.get();
}

const SourceLookup* SourceLines::Lookup(const std::string& path,
                                        uint64_t addr, bool stateful) {
  Entry& e = *Opened(path);
  if (!e.file) return nullptr;
  auto [slot, fresh] = e.cache.try_emplace(addr);
  if (fresh) e.file->Lookup(addr, &slot->second, stateful);
  return &slot->second;
}

std::string DemangleFull(const std::string& name) {
  // Rust's rules first, as libiberty's cplus_demangle tries them: a legacy
  // Rust name is a valid C++ one too ("r::work::h1eab6cb39..." as C++).
  std::string rust;
  if (DemangleRust(name, &rust)) return rust;
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
  // Version suffixes ("@GLIBCXX_3.4") stay as they are, after the name.
  size_t at = name.find('@');
  std::string base = at == std::string::npos ? name : name.substr(0, at);
  int status = 0;
  char* out = abi::__cxa_demangle(base.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !out) {
    std::free(out);
    return name;
  }
  std::string result = out;
  std::free(out);
  if (at != std::string::npos) result += name.substr(at);
  return result;
}

}  // namespace flamefold
