// SymbolTable: the functions of one binary (or of the kernel), sorted, with
// the same clean-ups perf applies before it looks an address up, so that
// an address resolves to the name perf script prints:
//   - a symbol without a size ends where the next one starts (kallsyms:
//     the last symbol before a module ends at the next page boundary);
//   - of several symbols at one address, one is kept, by perf's rules
//     (symbols/symbol_aliases.h).
// A finished table is searched through its symbols' bounds in buckets or,
// where perf's tree decides (FinishAsPerfTree), through that tree.
// Related: symbols/kallsyms.h reads the kernel's tables, symbols/perf_map.h
// JIT maps, symbols/elf_symbols.h a binary's.
#ifndef FLAMEFOLD_SYMBOLS_SYMBOL_TABLE_H_
#define FLAMEFOLD_SYMBOLS_SYMBOL_TABLE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/big_alloc.h"
#include "symbols/name_store.h"
#include "symbols/perf_tree.h"
#include "symbols/symbol.h"
#include "symbols/symbol_aliases.h"

namespace flamefold {

class KallsymsIndex;
struct KallsymsModule;
class OverlapTree;

class SymbolTable {
 public:
  /// `mangled`: the name is the ELF one, demangled only when it is shown
  /// or compared with an alias (most symbols are never hit).
  void Add(uint64_t start, uint64_t size, std::string_view name,
           SymbolBinding binding, bool mangled = false);
  /// The name as perf prints it, of one of this table's symbols.
  std::string Display(const Symbol& s) const;
  /// Sorts and applies perf's clean-ups. `kallsyms` selects its variant of
  /// the end fix-up (module symbols carry "\t[module]" in their name then).
  /// `fixups` false keeps the symbols as given (perf does so for JIT maps).
  void Finish(bool kallsyms, bool fixups = true);
  /// Finish's sorting and clean-ups without the search Find walks: for
  /// symbols that move on to other tables (kallsyms' to the kernel's and
  /// each module's), where building it would be wasted memory and time.
  void CleanUp(bool kallsyms);
  /// As Finish(false), but the symbols also go into a red-black tree built
  /// the way perf builds its own (inserted in the order added, aliases
  /// erased by the same steps), and `late` symbols (perf's PLT entries,
  /// which it adds after its clean-ups) are inserted afterwards. Find then
  /// walks that tree as perf does, so that where symbols overlap (a label
  /// inside a function, a stretched size-less symbol) the same one is found.
  /// The names of `late` must stay valid as long as the table (ShareNames).
  /// When the finished symbols do not overlap, every search of that tree
  /// finds what a binary search finds, so the tree is not built: the
  /// symbols are kept sorted (one per address) instead. `allow_sorted`
  /// false builds the tree regardless (for tests comparing the two).
  void FinishAsPerfTree(std::span<const Symbol> late,
                        bool allow_sorted = true);
  /// The symbol containing `addr`, or nullptr. Without a tree: the closest
  /// symbol at or below `addr`, when it holds it.
  const Symbol* Find(uint64_t addr) const;
  /// The first symbol's start and the last one's end; false when empty.
  bool Range(uint64_t* start, uint64_t* end) const;
  /// Whether the table makes its symbols when looked up (LoadKallsyms).
  bool lazy() const { return lazy_ != nullptr; }
  /// Whether FinishAsPerfTree left perf's tree to be built at the first
  /// look-up where the symbols overlap.
  bool tree_pending() const { return lazy_tree_ != nullptr; }

  /// A kernel table read lazily (see LoadKallsyms) makes its symbols here,
  /// all of them, on the first call.
  size_t size() const { return symbols().size(); }
  const BigVector<Symbol>& symbols() const;
  /// Symbols put here directly must have their names in names().
  BigVector<Symbol>* mutable_symbols() {
    Eager();
    return &syms_;
  }
  NameStore* names() { return &names_; }
  /// Keeps the names of `other` valid as long as this table, for symbols
  /// moved from there to here.
  void ShareNames(const SymbolTable& other) { names_.Share(other.names_); }

 private:
  // A kernel table whose symbols are made when looked up (symbols/
  // kallsyms.h); null for all others. Eager() makes them all.
  friend bool LoadKallsyms(const std::string& path, SymbolTable* core,
                           std::vector<KallsymsModule>* modules,
                           std::string* err, bool in_place);
  std::shared_ptr<KallsymsIndex> lazy_;
  void Eager();
  // A table finished by FinishAsPerfTree whose symbols overlap: sorted as
  // others are, with perf's tree of them built at the first look-up in an
  // overlap (symbols/overlap_tree.h); null for all others.
  std::shared_ptr<OverlapTree> lazy_tree_;
  bool FindInLazyTree(uint64_t addr, const Symbol** found) const;

  void SortByStart();
  static BigVector<Symbol> SortedByStart(const BigVector<Symbol>& syms,
                                         size_t room = 0);
  void BuildSearch();
  void BuildBuckets();
  bool FinishSorted(std::span<const Symbol> late, bool tree_now);
  size_t KeepOnePerStart(BigVector<Symbol>* seq);
  void ResolveAliases() { aliases_.ResolveAll(syms_, &names_); }
  // Aliases whose choice waits for their names (Symbol::alias_group).
  AliasGroups aliases_;

  // What Find walks, built by Finish and FinishAsPerfTree: the tree's
  // nodes with their symbols' bounds, in breadth-first order (the top
  // levels share a few cache lines), or the sorted symbols' bounds with
  // buckets. A look-up through tree_ and syms_ missed the cache twice a
  // level.
  struct SearchNode {
    uint64_t start, end;
    int32_t left, right;
    uint32_t sym;
  };
  BigVector<SearchNode> search_;
  // Sorted tables: bounds_[i] holds syms_[i]'s; buckets_[b] is the first
  // symbol starting at or past the first start + (b << bucket_shift_), about
  // one symbol a bucket, and buckets_.back() the count. A look-up then
  // searches one bucket, where a binary search of the whole table would miss
  // the cache at most of its levels.
  struct Bounds {
    uint64_t start, end;
  };
  BigVector<Bounds> bounds_;
  BigVector<uint32_t> buckets_;
  int bucket_shift_ = 0;

  NameStore names_;
  // Big tables (100,000 symbols) are mapped directly (BigAllocate).
  BigVector<Symbol> syms_;
  PerfTree tree_;  // where FinishAsPerfTree builds one (see OverlapTree)
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SYMBOL_TABLE_H_
