// Symbol: one function of a binary or of the kernel as the symbol tables
// hold it: its address range, its name (a view into its table's NameStore)
// and what perf asks of it when it chooses among aliases. Its own header,
// so that the alias rules, perf's tree and the kallsyms index can speak of
// symbols without the table that gathers them.
#ifndef FLAMEFOLD_SYMBOLS_SYMBOL_H_
#define FLAMEFOLD_SYMBOLS_SYMBOL_H_

#include <cstdint>
#include <string_view>

namespace flamefold {

enum class SymbolBinding : uint8_t { kLocal, kGlobal, kWeak };

struct Symbol {
  uint64_t start = 0;
  uint64_t end = 0;  // one past the last byte; == start until Finish()
  std::string_view name;  // in the table's NameStore
  SymbolBinding binding = SymbolBinding::kGlobal;
  bool mangled = false;  // `name` is still to be demangled (see Display)
  bool plt = false;  // a PLT entry: shown as `name` (demangled) + "@plt"
  // Not 0: the symbol stands for aliases whose names decide which perf
  // keeps, chosen when shown (see SymbolTable::Display); `name` is the
  // first one's. Index + 1 into its table's groups (AliasGroups).
  uint32_t alias_group = 0;
};
static_assert(sizeof(Symbol) == 40, "the alias group fits in the padding");

/// `v` rounded up to a page (4 KiB): perf's end for a size-less symbol
/// with no next one to end at.
inline uint64_t RoundUpPage(uint64_t v) {
  return (v + 4095) & ~uint64_t{4095};
}

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SYMBOL_H_
