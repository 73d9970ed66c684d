// SymbolResolver: finds the file that holds the symbols of each mapped
// object (DSO) the way perf does, loads its symbols on first use and names
// addresses as perf script prints them ("main+0x27", "[unknown]").
//
// Where symbols come from, in perf's order:
//   - user code: the .gnu_debuglink file (next to the binary, in .debug/,
//     under /usr/lib/debug), the build-id cache (~/.debug/.build-id/xx/...),
//     /usr/lib/debug/<path>[.debug], /usr/lib/debug/.build-id/xx/....debug,
//     then the path itself; a file whose build id differs from the recorded
//     one is skipped. The first candidate with .symtab gives the symbols,
//     the first with .dynsym places them (else the symbol file does).
//   - the kernel and its modules: a kallsyms file (default /proc/kallsyms,
//     or the build-id cache's copy of it when that is the same: see
//     kallsyms_copy.h).
//   - JIT code: /tmp/perf-PID.map.
// Every path except the build-id cache is looked up under `symfs` when set,
// as with perf's --symfs; the cache is `debug_dir` (perf --buildid-dir),
// by default SYMFS/.debug under --symfs (as perf 6.1 sets it), else
// $HOME/.debug.
// An unpacked `perf archive` (perf_archive.h) is a build-id cache looked in
// before that one.
#ifndef FLAMEFOLD_SYMBOLS_SYMBOL_RESOLVER_H_
#define FLAMEFOLD_SYMBOLS_SYMBOL_RESOLVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/arena.h"
#include "symbols/elf_symbols.h"
#include "symbols/kallsyms.h"
#include "symbols/kallsyms_copy.h"
#include "symbols/symbol_table.h"

namespace flamefold {

struct SymbolOptions {
  std::string symfs;     // prefix for file look-ups ("" = /)
  // Kernel symbols; "" = the running kernel's (`kernel`), from the
  // build-id cache's copy of its kallsyms when that is current
  // (LoadCurrentKallsyms).
  std::string kallsyms;
  KernelFiles kernel;  // the running kernel's files (tests change them)
  std::string debug_dir;  // build-id cache; "": SYMFS/.debug, else $HOME/.debug
  // An unpacked `perf archive`: a build-id cache looked in first; "" none.
  std::string archive_dir;
  std::string archive_name;  // the archive, as warnings name it
  // Kernel symbol files are mapped, not read (see LoadKallsyms): set where
  // mapped files are guarded, as the tools' are.
  bool kallsyms_in_place = false;
};

enum class DsoKind { kUser, kKernel, kModule, kPerfMap };

struct Dso {
  DsoKind kind = DsoKind::kUser;
  std::string name;      // as perf script prints it between parentheses
  std::string path;      // the file as recorded
  std::string build_id;  // raw bytes; "" when unknown
  // The file at `path` as it is opened (under --symfs); for OwnVdso, a
  // copy of this process's vDSO.
  std::string file;
  bool loaded = false;  // its symbols are in (SymbolResolver::Load)
  int8_t elf_object = -1;  // HasElfObject's answer; -1: not asked yet
  std::vector<std::string> load_warnings;  // what loading it had to say
  // Set when a user DSO is loaded: the file its symbols came from (where
  // perf runs addr2line; a separate debug file included), where unwinding
  // also looks for .debug_frame when the object has no CFI of its own;
  // "" when none was found.
  std::string symsrc;
  // The object itself, as perf reads its code and CFI when unwinding (its
  // copy in the build-id cache, else the file at its path); "" when no
  // file with the recorded build id is there.
  std::string binary;
  // The first candidate with a .symtab (perf's symsrc_filename, where its
  // addr2line looks up source lines); "" when none has one.
  std::string symtab_file;
  // perf's dso->text_offset once loaded: .text's address minus its file
  // offset in the object that places the symbols (ElfInfo). perf adds it
  // to a frame's address in the file (perf's map__rip_2objdump) before it
  // asks addr2line; it is not 0 where the linker (lld, as rustc uses)
  // lays code out at an address other than its offset.
  uint64_t text_offset = 0;
  SymbolTable table;
  // Name's demangled symbol names (in the resolver's arena), by symbol: a
  // symbol hit at many addresses is demangled once.
  std::unordered_map<const Symbol*, std::string_view> shown;
};

/// A code address in a DSO: the key of the per-location caches of the
/// perf.data replay (frame texts, unwound frames, source lines), so that
/// their cost follows the distinct code locations, not the samples.
struct DsoAddress {
  const Dso* dso;
  uint64_t addr;
  bool operator==(const DsoAddress&) const = default;
};
struct DsoAddressHash {
  size_t operator()(const DsoAddress& k) const {
    return std::hash<uint64_t>()(k.addr * 0x9e3779b97f4a7c15ULL ^
                                 reinterpret_cast<uintptr_t>(k.dso));
  }
};

class SymbolResolver {
 public:
  explicit SymbolResolver(SymbolOptions options);
  SymbolResolver(const SymbolResolver&) = delete;
  SymbolResolver& operator=(const SymbolResolver&) = delete;

  /// The DSO for a user mapping of `path` (build id raw, may be "").
  Dso* User(const std::string& path, const std::string& build_id);
  /// The DSO for a "[vdso]" mapping when the recording's build-id table
  /// does not name [vdso] (perf record -z, -B, --buildid-mmap): its file is
  /// this process's own vDSO (OwnVdsoFile), as perf script's is, under no
  /// --symfs; a file whose build id is not `build_id` (when given) is not
  /// used, as for any DSO.
  Dso* OwnVdso(const std::string& build_id);
  /// The kernel proper, "[kernel.kallsyms]" (made at the first call, then
  /// remembered: the replay asks for it at every kernel frame).
  Dso* Kernel();
  /// A kernel module, by the file name of its mapping ("/lib/.../x.ko" or
  /// "[x]").
  Dso* Module(const std::string& path);
  /// "/tmp/perf-PID.map".
  Dso* PerfMap(uint32_t pid);

  /// Loads the symbols of `dso` and the files they come from (`symsrc`,
  /// `binary`, ...) unless they are loaded: the one way to have them. A
  /// module's come with the kernel's. The first load of each DSO is its
  /// first use, which orders the warnings (see warnings()).
  void Load(Dso* dso);

  /// Loads the kernel symbols; false when there are none. `*start` and
  /// `*end` are then the first symbol's start and the last one's end: perf
  /// stretches the kernel map to them once its symbols are loaded.
  bool KernelRange(uint64_t* start, uint64_t* end);
  /// Whether the kernel symbols, once loaded, came from the build-id
  /// cache's copy of kallsyms (LoadCurrentKallsyms), not the kernel's file.
  bool KallsymsFromCopy() {
    Load(Kernel());
    return kallsyms_from_copy_;
  }

  /// The symbol name and offset perf prints for `addr` of `dso`
  /// ("sym+0xoff"), or "[unknown]". Callers cache it per address.
  std::string Name(Dso* dso, uint64_t addr);
  /// The symbol perf finds at `addr` of `dso` (nullptr: none), the DSO's
  /// symbols loaded first (Load): what Name() names.
  const Symbol* SymbolAt(Dso* dso, uint64_t addr);
  /// The name perf prints for `sym`, one of `dso`'s symbols (SymbolAt):
  /// demangled once per symbol, valid as long as this resolver.
  std::string_view Shown(Dso* dso, const Symbol* sym);
  /// Whether perf could open `dso`'s object and read an ELF header there
  /// (its build-id cache copy, else the file at its path; perf's
  /// dso__type): perf unwinds a process's --call-graph dwarf samples only
  /// once one of its mappings is such an object. Cached; needs no symbols.
  bool HasElfObject(Dso* dso);

  /// Warnings collected while loading (files not found, ...), by DSO in
  /// the order of first use (Load): a module's is the kernel's.
  std::vector<std::string> warnings() const;

 private:
  Dso* Get(DsoKind kind, const std::string& name, const std::string& path,
           const std::string& build_id, const std::string* file = nullptr);
  void LoadModule(Dso* dso);
  void LoadUser(Dso* dso) const;
  std::string DataFile(const Dso& dso, const std::string& hex,
                       const std::string& binary,
                       const ElfInfo* binary_info) const;
  std::string ReadKallsyms(Dso* kernel);
  std::string Symfs(const std::string& path) const;
  std::vector<std::string> BuildIdLinks(const std::string& hex) const;

  SymbolOptions options_;
  std::map<std::string, std::unique_ptr<Dso>> dsos_;
  Arena names_;          // Dso::shown's names
  Dso* kernel_ = nullptr;  // Kernel()'s, once made
  std::vector<KallsymsModule> kallsyms_modules_;
  bool kallsyms_from_copy_ = false;
  std::vector<Dso*> loaded_;  // in the order of their first use (Load)
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SYMBOL_RESOLVER_H_
