// Kernel symbols from a kallsyms file (/proc/kallsyms, or perf's copy of it
// in the build-id cache), kept as perf keeps them. Its lines read
//   ffffffff81000000 T _stext
//   ffffffffc0a01000 t ext4_iget<TAB>[ext4]
// an address in hex, a type, the name, and for a module's symbol a tab and
// the module's name in brackets. Only text symbols (types t, T, w and W)
// are kept, but for empty names and names starting with '$'.
//
// A recording hits few of a kernel's many text symbols, and making each
// one costs more than indexing its line: a file that allows it is indexed
// (KallsymsIndex), and a symbol is made only when an address in it is
// looked up.
#ifndef FLAMEFOLD_SYMBOLS_KALLSYMS_H_
#define FLAMEFOLD_SYMBOLS_KALLSYMS_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/big_alloc.h"
#include "symbols/symbol.h"
#include "symbols/symbol_table.h"

namespace flamefold {

/// Reads a kallsyms file into `core` (the kernel proper) and `modules` (per
/// module name, addresses absolute). `in_place`: a regular file is mapped,
/// not read (the tools, which guard mapped files against SIGBUS:
/// io/mapped_file.h; the library installs no handler and reads).
/// A file without module symbols whose lines come by address (a kernel
/// without modules, as the kernel writes it) becomes a lazy `core`
/// (SymbolTable::lazy(), over a KallsymsIndex).
struct KallsymsModule {
  std::string name;  // without brackets
  SymbolTable table;
};
bool LoadKallsyms(const std::string& path, SymbolTable* core,
                  std::vector<KallsymsModule>* modules, std::string* err,
                  bool in_place = false);

/// A kept line of a kallsyms file, as compact as its text allows.
struct KallsymsLine {
  uint64_t start;
  uint32_t name_at;  // offset of the name in the text
  uint16_t name_size;
  SymbolBinding binding;
};
static_assert(sizeof(KallsymsLine) == 16);

/// The kept lines of kallsyms `text`, in the file's order; false when one
/// does not fit a KallsymsLine (never in a real file). `*marked` tells
/// whether a kept name holds '[' or '\t' (a module's, to perf).
bool IndexKallsyms(std::string_view text, BigVector<KallsymsLine>* lines,
                   bool* marked);

/// A kernel table made lazily: the kept lines of a kallsyms file that has
/// no module symbols and lists them by address, as the kernel does. What
/// SymbolTable::CleanUp (kallsyms) and Finish make of all of them, Find
/// makes of the lines at one address when one is looked up:
///   - a line's symbol ends where the next line's starts (an earlier one of
///     several at one address ends where it starts); the last line's ends
///     a page past its start, rounded up to a page;
///   - of the lines at one address, KeepFirst chooses in the lines' order;
///   - the address found is in the closest start at or below it, if that
///     symbol holds it.
/// Thread-safe: the symbols made are kept under a lock, each at a stable
/// address (the callers key their caches by it).
class KallsymsIndex {
 public:
  /// `lines`: IndexKallsyms's of `text`, by start, none marked. The names
  /// are views into `text`, which must stay valid as long as the index.
  KallsymsIndex(std::string_view text, BigVector<KallsymsLine> lines);
  /// The symbol holding `addr`, or nullptr.
  const Symbol* Find(uint64_t addr);
  /// Every symbol, as CleanUp(true) makes them, made at the first call.
  const BigVector<Symbol>& All();
  /// The first symbol's start and the last one's end; false when empty.
  bool Range(uint64_t* start, uint64_t* end) const;

 private:
  Symbol LineSymbol(size_t i, uint64_t end) const;
  Symbol Kept(size_t last) const;

  std::string_view text_;
  BigVector<KallsymsLine> lines_;
  // Every kStride-th line's start: a look-up searches these (a small array
  // that stays in the cache), then kStride lines.
  static constexpr size_t kStride = 32;
  std::vector<uint64_t> top_;

  std::mutex mu_;
  std::unordered_map<size_t, Symbol> made_;  // by the last line at its start
  BigVector<Symbol> all_;  // every symbol, made by All()
  bool all_made_ = false;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_KALLSYMS_H_
