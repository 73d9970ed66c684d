#include "symbols/kallsyms_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "base/hex.h"
#include "io/file_source.h"
#include "symbols/elf_symbols.h"

namespace flamefold {
namespace {

constexpr uint32_t kNoteGnuBuildId = 3;  // NT_GNU_BUILD_ID

size_t Align4(size_t n) { return (n + 3) & ~size_t{3}; }

// Up to `cap` bytes from the start of `path`, in one read (a proc file
// gives one page of whole lines) or, with `all`, until the end; false if
// it cannot be opened or read.
bool ReadHead(const std::string& path, size_t cap, bool all, std::string* out) {
  std::string err;
  const int fd = OpenFileFd(path, &err);
  if (fd < 0) return false;
  FdSource source(fd, true);
  if (all) return ReadFully(&source, cap, out, &err);
  out->resize(cap);
  size_t got = 0;
  const bool ok = source.Read(out->data(), cap, &got, &err);
  out->resize(got);
  return ok;
}

// A module's line in /proc/modules, as the kernel writes it:
//   "ext4 1019904 1 - Live 0xffffffffc0a1b000"
//   "nf_tables 348160 1 nft_chain_nat, Live 0xffffffffc0b02000 (E)"
struct LoadedModule {
  std::string_view name;
  uint64_t size = 0, base = 0;
  bool live = false;
};

bool ParseModuleLine(std::string_view line, LoadedModule* m) {
  std::string_view field[6];
  for (std::string_view& f : field) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) return false;
    line.remove_prefix(start);
    f = line.substr(0, line.find(' '));
    line.remove_prefix(f.size());
  }
  m->name = field[0];
  for (char c : field[1]) {
    if (c < '0' || c > '9') return false;
    m->size = m->size * 10 + static_cast<uint64_t>(c - '0');
  }
  m->live = field[4] == "Live";
  std::string_view addr = field[5];
  if (addr.substr(0, 2) != "0x") return false;
  addr.remove_prefix(2);
  return !addr.empty() && ParseHex(addr, &m->base) == addr.size();
}

// BPF programs and ftrace/kprobe trampolines, listed as modules.
bool PseudoModule(std::string_view name) {
  return name == "bpf" || name.substr(0, 11) == "__builtin__";
}

// The copy's modules against the loaded ones (see the header).
bool SameModules(const std::vector<KallsymsModule>& copy_modules,
                 std::string_view modules) {
  std::vector<LoadedModule> loaded;
  while (!modules.empty()) {
    size_t nl = modules.find('\n');
    std::string_view line = modules.substr(0, nl);
    modules.remove_prefix(nl == std::string_view::npos ? modules.size()
                                                       : nl + 1);
    if (line.empty()) continue;
    LoadedModule m;
    if (!ParseModuleLine(line, &m) || !m.live) return false;
    loaded.push_back(m);
  }
  size_t real = 0;
  for (const KallsymsModule& c : copy_modules) {
    if (PseudoModule(c.name)) continue;
    ++real;
    auto it = std::find_if(loaded.begin(), loaded.end(),
                           [&](const LoadedModule& m) { return m.name == c.name; });
    if (it == loaded.end()) return false;
    const BigVector<Symbol>& syms = c.table.symbols();
    if (syms.empty()) continue;
    if (syms.front().start < it->base ||
        syms.back().start - it->base >= it->size) {
      return false;
    }
  }
  return real == loaded.size();
}

}  // namespace

std::string BuildIdFromNotes(std::string_view notes) {
  size_t off = 0;
  while (notes.size() - off >= 12) {
    uint32_t namesz, descsz, type;
    std::memcpy(&namesz, notes.data() + off, 4);
    std::memcpy(&descsz, notes.data() + off + 4, 4);
    std::memcpy(&type, notes.data() + off + 8, 4);
    off += 12;
    size_t name_len = Align4(namesz), desc_len = Align4(descsz);
    if (name_len > notes.size() - off ||
        desc_len > notes.size() - off - name_len) {
      return "";
    }
    std::string_view name = notes.substr(off, namesz);
    std::string_view desc = notes.substr(off + name_len, descsz);
    if (type == kNoteGnuBuildId && name == std::string_view("GNU", 4)) {
      return std::string(desc);
    }
    off += name_len + desc_len;
  }
  return "";
}

bool KallsymsCopyIsCurrent(std::string_view copy_head,
                           const std::vector<KallsymsModule>& copy_modules,
                           std::string_view kallsyms_head,
                           std::string_view modules) {
  if (kallsyms_head.empty() ||
      copy_head.substr(0, kallsyms_head.size()) != kallsyms_head) {
    return false;
  }
  return SameModules(copy_modules, modules);
}

namespace {

// The copy's tables when it is current (see the header), else false and
// `core` and `modules` untouched.
bool LoadCopyIfCurrent(const KernelFiles& files, const std::string& debug_dir,
                       bool in_place, SymbolTable* core,
                       std::vector<KallsymsModule>* modules) {
  std::string notes, head, copy_head, loaded;
  if (!ReadHead(files.notes, 1 << 16, true, &notes)) return false;
  std::string build_id = BuildIdFromNotes(notes);
  if (build_id.empty()) return false;
  std::string copy = debug_dir + "/[kernel.kallsyms]/" + BuildIdHex(build_id) +
                     "/kallsyms";
  // The kernel's first read is a page of lines, 4 KiB or less on x86; on a
  // larger page, the first 4 KiB. A copy whose start differs is not read.
  if (!ReadHead(files.kallsyms, 4096, false, &head) ||
      !ReadHead(copy, head.size(), true, &copy_head) || copy_head != head) {
    return false;
  }
  bool has_modules = access(files.modules.c_str(), F_OK) == 0;
  if (has_modules && !ReadHead(files.modules, 1 << 20, true, &loaded)) {
    return false;
  }
  SymbolTable copy_core;
  std::vector<KallsymsModule> copy_modules;
  std::string ignored;
  if (!LoadKallsyms(copy, &copy_core, &copy_modules, &ignored, in_place) ||
      !KallsymsCopyIsCurrent(copy_head, copy_modules, head, loaded)) {
    return false;
  }
  *core = std::move(copy_core);
  *modules = std::move(copy_modules);
  return true;
}

}  // namespace

bool LoadCurrentKallsyms(const KernelFiles& files, const std::string& debug_dir,
                         SymbolTable* core, std::vector<KallsymsModule>* modules,
                         bool* from_copy, std::string* err, bool in_place) {
  *from_copy = LoadCopyIfCurrent(files, debug_dir, in_place, core, modules);
  return *from_copy ||
         LoadKallsyms(files.kallsyms, core, modules, err, in_place);
}

}  // namespace flamefold
