#include "symbols/symbol_resolver.h"

#include <sys/stat.h>

#include <charconv>
#include <cstdlib>

#include "io/file_source.h"
#include "symbols/elf_symbols.h"
#include "symbols/kallsyms.h"
#include "symbols/own_vdso.h"
#include "symbols/perf_map.h"

namespace flamefold {
namespace {

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// True when `path` exists (a dangling symlink does not).
bool PathExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string Dirname(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// "[nf_tables]" from "/lib/modules/6.1.0/kernel/net/nf_tables.ko.xz".
std::string ModuleName(const std::string& path) {
  if (!path.empty() && path[0] == '[') return path;
  std::string base = path.substr(path.rfind('/') + 1);
  size_t ko = base.find(".ko");
  if (ko != std::string::npos) base.resize(ko);
  for (char& c : base) {
    if (c == '-') c = '_';
  }
  return "[" + base + "]";
}

}  // namespace

SymbolResolver::SymbolResolver(SymbolOptions options)
    : options_(std::move(options)) {
  if (options_.debug_dir.empty() && !options_.symfs.empty()) {
    // perf 6.1's --symfs moves the build-id cache to SYMFS/.debug too.
    options_.debug_dir = options_.symfs + "/.debug";
  } else if (options_.debug_dir.empty()) {
    const char* home = std::getenv("HOME");
    options_.debug_dir = std::string(home ? home : "") + "/.debug";
  }
}

std::vector<std::string> SymbolResolver::warnings() const {
  std::vector<std::string> out;
  for (const Dso* dso : loaded_) {
    out.insert(out.end(), dso->load_warnings.begin(), dso->load_warnings.end());
  }
  return out;
}

// The kernel's and its modules' symbols into place; the warning to give
// ("" if none).
std::string SymbolResolver::ReadKallsyms(Dso* kernel) {
  std::string err;
  bool ok = false;
  if (options_.kallsyms.empty()) {
    bool from_copy = false;
    ok = LoadCurrentKallsyms(options_.kernel, options_.debug_dir,
                             &kernel->table, &kallsyms_modules_, &from_copy,
                             &err, options_.kallsyms_in_place);
    kallsyms_from_copy_ = from_copy;
  } else {
    ok = LoadKallsyms(options_.kallsyms, &kernel->table, &kallsyms_modules_,
                      &err, options_.kallsyms_in_place);
  }
  if (!ok) {
    return err + ": kernel frames stay [unknown]";
  }
  return "";
}

std::string SymbolResolver::Symfs(const std::string& path) const {
  return options_.symfs.empty() ? path : options_.symfs + path;
}

// The build-id cache entries (".../.build-id/xx/yyyy") of `hex` to look
// in, in order: the unpacked archive's, then the cache's; none without a
// build id.
std::vector<std::string> SymbolResolver::BuildIdLinks(
    const std::string& hex) const {
  std::vector<std::string> links;
  if (hex.size() <= 2) return links;
  std::string tail = "/.build-id/" + hex.substr(0, 2) + "/" + hex.substr(2);
  if (!options_.archive_dir.empty()) {
    links.push_back(options_.archive_dir + tail);
  }
  links.push_back(options_.debug_dir + tail);
  return links;
}

Dso* SymbolResolver::Get(DsoKind kind, const std::string& name,
                         const std::string& path, const std::string& build_id,
                         const std::string* file) {
  // (A DSO with a file of its own is not the one at its path.)
  std::string key = std::to_string(static_cast<int>(kind)) +
                    (file ? "+" : "") + '\0' + path + '\0' + build_id;
  auto it = dsos_.find(key);
  if (it != dsos_.end()) return it->second.get();
  auto dso = std::make_unique<Dso>();
  dso->kind = kind;
  dso->name = name;
  dso->path = path;
  dso->build_id = build_id;
  dso->file = file ? *file : Symfs(path);
  Dso* raw = dso.get();
  dsos_.emplace(std::move(key), std::move(dso));
  return raw;
}

Dso* SymbolResolver::User(const std::string& path,
                          const std::string& build_id) {
  return Get(DsoKind::kUser, path, path, build_id);
}

Dso* SymbolResolver::OwnVdso(const std::string& build_id) {
  // perf joins --symfs to the path of its copy, where no copy is.
  bool symfs = options_.symfs.find_first_not_of('/') != std::string::npos;
  std::string file = symfs ? Symfs("[vdso]") : OwnVdsoFile();
  return Get(DsoKind::kUser, "[vdso]", "[vdso]", build_id, &file);
}

Dso* SymbolResolver::Kernel() {
  if (!kernel_) kernel_ = Get(DsoKind::kKernel, "[kernel.kallsyms]", "", "");
  return kernel_;
}

Dso* SymbolResolver::Module(const std::string& path) {
  std::string name = ModuleName(path);
  return Get(DsoKind::kModule, name, name, "");
}

Dso* SymbolResolver::PerfMap(uint32_t pid) {
  std::string path = "/tmp/perf-" + std::to_string(pid) + ".map";
  return Get(DsoKind::kPerfMap, path, path, "");
}

std::string SymbolResolver::Name(Dso* dso, uint64_t addr) {
  const Symbol* sym = SymbolAt(dso, addr);
  if (!sym) return "[unknown]";
  char off[24];
  auto r = std::to_chars(off, off + sizeof off, addr - sym->start, 16);
  std::string text(Shown(dso, sym));
  text += "+0x";
  text.append(off, r.ptr);
  return text;
}

const Symbol* SymbolResolver::SymbolAt(Dso* dso, uint64_t addr) {
  Load(dso);
  return dso->table.Find(addr);
}

std::string_view SymbolResolver::Shown(Dso* dso, const Symbol* sym) {
  auto [shown, added] = dso->shown.try_emplace(sym);
  if (added) shown->second = names_.Store(dso->table.Display(*sym));
  return shown->second;
}

void SymbolResolver::Load(Dso* dso) {
  if (dso->loaded) return;
  dso->loaded = true;
  std::string err;
  switch (dso->kind) {
    case DsoKind::kUser:
      LoadUser(dso);
      break;
    case DsoKind::kKernel:
      err = ReadKallsyms(dso);
      if (!err.empty()) dso->load_warnings.push_back(err);
      break;
    case DsoKind::kModule:
      LoadModule(dso);
      return;  // the kernel's warning stands for its modules
    case DsoKind::kPerfMap:
      if (!LoadPerfMap(Symfs(dso->path), &dso->table, &err)) {
        dso->load_warnings.push_back(err);
      }
      break;
  }
  loaded_.push_back(dso);
}

// A module's symbols: those kallsyms lists for it.
void SymbolResolver::LoadModule(Dso* dso) {
  Load(Kernel());
  for (KallsymsModule& m : kallsyms_modules_) {
    if ("[" + m.name + "]" == dso->name) {
      dso->table = std::move(m.table);
      return;
    }
  }
}

bool SymbolResolver::KernelRange(uint64_t* start, uint64_t* end) {
  Load(Kernel());
  return Kernel()->table.Range(start, end);
}

namespace {

bool StartsWithElfMagic(const std::string& path) {
  std::string err, magic;
  const int fd = OpenFileFd(path, &err);
  if (fd < 0) return false;
  FdSource source(fd, true);
  return ReadFully(&source, 4, &magic, &err) && magic == "\x7f" "ELF";
}

}  // namespace

bool SymbolResolver::HasElfObject(Dso* dso) {
  if (dso->elf_object >= 0) return dso->elf_object == 1;
  bool elf = false;
  if (dso->kind == DsoKind::kUser) {
    for (const std::string& link : BuildIdLinks(BuildIdHex(dso->build_id))) {
      if (elf) break;
      elf = StartsWithElfMagic(link +
                               (dso->path == "[vdso]" ? "/vdso" : "/elf"));
    }
    if (!elf && IsRegularFile(dso->file)) elf = StartsWithElfMagic(dso->file);
  }
  dso->elf_object = elf ? 1 : 0;
  return elf;
}

// perf's dso__data_fd: the object itself, where unwinding reads its CFI
// (.eh_frame) and code, is the build-id cache's copy ("elf", or "vdso"),
// else the file at its path (under --symfs). Seen with strace on perf 6.1:
// .../.build-id/93/ac61.../elf is opened for libc, never the separate debug
// file, whose .eh_frame is an empty NOBITS section. A file whose build id
// differs from the recorded one is not used: its CFI would be another
// program's.
std::string SymbolResolver::DataFile(const Dso& dso, const std::string& hex,
                                     const std::string& binary,
                                     const ElfInfo* binary_info) const {
  for (const std::string& link : BuildIdLinks(hex)) {
    std::string cached = link + (dso.path == "[vdso]" ? "/vdso" : "/elf");
    ElfInfo ci;
    std::string err;
    if (IsRegularFile(cached) && ReadElfInfo(cached, &ci, &err) &&
        ci.build_id == dso.build_id) {
      return cached;
    }
  }
  if (binary_info &&
      (dso.build_id.empty() || binary_info->build_id == dso.build_id)) {
    return binary;
  }
  return "";
}

// Tries perf's candidates in its order; see the header.
void SymbolResolver::LoadUser(Dso* dso) const {
  const std::string& path = dso->path;
  std::vector<std::string> candidates;
  const std::string& binary = dso->file;
  ElfInfo info;
  std::string err;
  bool readable = IsRegularFile(binary) && ReadElfInfo(binary, &info, &err);
  // With no build id recorded, perf takes the file's own.
  if (dso->build_id.empty() && readable) dso->build_id = info.build_id;
  std::string hex = BuildIdHex(dso->build_id);
  if (readable && !info.debuglink.empty()) {
    std::string dir = Dirname(binary);
    candidates.push_back(dir + "/" + info.debuglink);
    candidates.push_back(dir + "/.debug/" + info.debuglink);
    candidates.push_back("/usr/lib/debug" + dir + "/" + info.debuglink);
  }
  for (const std::string& link : BuildIdLinks(hex)) {
    // The cache names its copy after what it is.
    candidates.push_back(link + (path == "[vdso]" ? "/vdso" : "/elf"));
    candidates.push_back(link + "/debug");
  }
  candidates.push_back(Symfs("/usr/lib/debug" + path + ".debug"));
  candidates.push_back(Symfs("/usr/lib/debug" + path));
  if (hex.size() > 2) {
    candidates.push_back(Symfs("/usr/lib/debug/.build-id/" +
                               hex.substr(0, 2) + "/" + hex.substr(2) +
                               ".debug"));
  }
  candidates.push_back(binary);
  std::string syms, runtime;
  uint64_t syms_text = 0, runtime_text = 0;  // their ElfInfo::text_offset
  for (const std::string& c : candidates) {
    if (!IsRegularFile(c)) continue;
    ElfInfo ci;
    if (!ReadElfInfo(c, &ci, &err)) continue;
    if (!dso->build_id.empty() && ci.build_id != dso->build_id) continue;
    if (syms.empty() && ci.has_symtab) {
      syms = c;
      syms_text = ci.text_offset;
    }
    if (runtime.empty() && ci.has_dynsym) {
      runtime = c;
      runtime_text = ci.text_offset;
    }
    if (!syms.empty() && !runtime.empty()) break;
  }
  dso->symtab_file = syms;
  if (syms.empty()) syms = runtime;
  if (runtime.empty()) {
    runtime = syms;
    runtime_text = syms_text;
  }
  if (!syms.empty()) dso->text_offset = runtime_text;
  dso->symsrc = syms;
  dso->binary = DataFile(*dso, hex, binary, readable ? &info : nullptr);
  if (syms.empty()) {
    std::string why;
    if (readable && !dso->build_id.empty() && info.build_id != dso->build_id) {
      // perf too passes over a file whose build id is not the recorded
      // one: its symbols would name another build's code.
      why = ": the file there has build id " + BuildIdHex(info.build_id) +
            ", not the recorded one (rebuilt since?)";
    }
    // Said of an archive only when it lacks the object altogether (one it
    // holds but lost is in the archive's own warnings).
    bool not_archived =
        !options_.archive_dir.empty() &&
        (hex.size() <= 2 || !PathExists(BuildIdLinks(hex).front()));
    dso->load_warnings.push_back(
        path + ": no symbols found" +
        (hex.empty() ? "" : " (build id " + hex + ")") +
        (not_archived ? "; not in the archive " + options_.archive_name : "") +
        why);
    return;
  }
  if (!LoadElfSymbols(syms, runtime, &dso->table, &err)) {
    dso->load_warnings.push_back(err);
  }
}

}  // namespace flamefold
