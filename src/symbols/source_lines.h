// SourceLines: what `addr2line -i -f -e FILE ADDR` (GNU binutils) prints
// for an address, computed in-process with elfutils libdw and cached per
// (file, address), for the two users of addr2line we imitate:
//   - perf script (6.1, built without libbfd) asks it for the inlined
//     frames of each DWARF-unwound frame and prints those "(inlined)";
//   - stackcollapse-perf.pl --inline/--context runs
//     `addr2line -a PC -e MOD -i -f -s -C` for each frame.
//
// The records follow binutils' rules: the first is the innermost function
// at the address (an inlined subroutine or the function itself) with the
// line of the address; each further one is the function it was inlined
// into, with the line of the call. A function is named by its linkage
// name; one without (C++ without DW_AT_linkage_name) by the ELF symbol
// holding the address, as binutils does; code without DWARF functions
// by the closest ELF function symbol at or below the address (binutils'
// choice: the highest start, then the bigger size, then the first in the
// symbol table). Addresses outside every allocated section print
// "??" / "??:0" (found = false).
#ifndef FLAMEFOLD_SYMBOLS_SOURCE_LINES_H_
#define FLAMEFOLD_SYMBOLS_SOURCE_LINES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace flamefold {

struct SourceRecord {
  std::string function;  // mangled as in the file; "" prints as "??"
  std::string file = "??";  // full path as in the line table
  uint32_t line = 0;     // 0 prints as "?"
  uint32_t discriminator = 0;
};

struct SourceLookup {
  bool found = false;  // false: addr2line prints "??" and "??:0"
  std::vector<SourceRecord> records;  // innermost first
};

/// One ELF file opened for look-ups (its DWARF, sections and symbols).
class SourceFile {
 public:
  /// nullptr when `path` is not a readable regular ELF file (a FIFO or a
  /// device is not opened for reading). A file without DWARF
  /// is replaced by its separate debug file when there is one, as binutils
  /// finds it (build id, then .gnu_debuglink), under `debug_root` ("" = /;
  /// "\n": do not look).
  static std::unique_ptr<SourceFile> Open(const std::string& path,
                                          const std::string& debug_root = "");
  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  /// The records for `addr`, an address as addr2line takes it (the
  /// file's own virtual addresses). At most `max_records`.
  /// `stateful`: as one addr2line process asked one address after the
  /// other (perf keeps one per file), whose answers depend on what it was
  /// asked before (see the .cc); else as a fresh process for each address
  /// (stackcollapse-perf.pl).
  void Lookup(uint64_t addr, SourceLookup* out, bool stateful,
              size_t max_records = 1024);

  /// The address of the first symbol named `name` as `nm` lists them
  /// (sorted by name), for stackcollapse-perf.pl's nm fallback.
  bool NmAddress(const std::string& name, uint64_t* addr) const;

 private:
  SourceFile() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // Function DIE offset -> the name a long-running addr2line now gives it.
  std::unordered_map<uint64_t, std::string> renamed_;
};

/// Files opened once, look-ups cached by (path, address).
class SourceLines {
 public:
  /// `debug_root`: where separate debug files are looked for (see
  /// SourceFile::Open).
  explicit SourceLines(std::string debug_root = "")
      : debug_root_(std::move(debug_root)) {}
  /// nullptr when the file cannot be opened (cached too).
  SourceFile* File(const std::string& path);
  /// The cached look-up of `addr` in `path`; nullptr when the file cannot
  /// be opened. See SourceFile::Lookup for `stateful`; one SourceLines
  /// should be used one way only.
  const SourceLookup* Lookup(const std::string& path, uint64_t addr,
                             bool stateful);

 private:
  struct Entry {
    std::unique_ptr<SourceFile> file;
    std::unordered_map<uint64_t, SourceLookup> cache;  // the user's only
  };
  Entry* Opened(const std::string& path);

  std::string debug_root_;
  std::map<std::string, Entry> files_;
};

/// A demangling with parameters, as `addr2line -C` (binutils' cplus_demangle
/// with DMGL_PARAMS | DMGL_ANSI) prints it; `name` itself when it is not a
/// mangled C++ name.
std::string DemangleFull(const std::string& name);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SOURCE_LINES_H_
