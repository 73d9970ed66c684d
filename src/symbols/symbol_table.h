// SymbolTable: the functions of one binary (or of the kernel), sorted, with
// the same clean-ups perf applies before it looks an address up, so that
// an address resolves to the name perf script prints:
//   - a symbol without a size ends where the next one starts (kallsyms:
//     the last symbol before a module ends at the next page boundary);
//   - of several symbols at one address, one is kept: the one with a size,
//     then not weak, then global, then with fewer leading underscores, then
//     with the longer name, then the first one seen.
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
  // first one's. Index + 1 into its table's groups.
  uint32_t alias_group = 0;
};
static_assert(sizeof(Symbol) == 40, "the alias group fits in the padding");

struct KallsymsModule;

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
  struct Node {
    int32_t left = -1, right = -1, parent = -1;
    bool red = true;
    uint32_t sym = 0;  // into syms_
    uint64_t start = 0;  // syms_[sym].start: inserting reads no symbol
  };
  void TreeInsert(uint32_t sym);
  void TreeErase(int32_t n);
  void RotateLeft(int32_t x);
  void RotateRight(int32_t x);
  void EraseFixup(int32_t x, int32_t parent);
  int32_t Next(int32_t n) const;
  int32_t First() const;
  void SetChild(int32_t parent, int32_t old_child, int32_t new_child);
  // A kernel table whose symbols are made when looked up (KallsymsIndex,
  // in symbol_table.cc); null for all others. Eager() makes them all.
  struct KallsymsIndex;
  friend bool LoadKallsyms(const std::string& path, SymbolTable* core,
                           std::vector<KallsymsModule>* modules,
                           std::string* err, bool in_place);
  std::shared_ptr<KallsymsIndex> lazy_;
  void Eager();
  const Symbol* FindLazy(uint64_t addr) const;
  // A table finished by FinishAsPerfTree whose symbols overlap: sorted as
  // others are, with perf's tree of them built at the first look-up in an
  // overlap (LazyTree, in symbol_table.cc); null for all others.
  struct LazyTree;
  std::shared_ptr<LazyTree> lazy_tree_;
  bool FindInLazyTree(uint64_t addr, const Symbol** found) const;

  void SortByStart();
  static BigVector<Symbol> SortedByStart(const BigVector<Symbol>& syms,
                                         size_t room = 0);
  void BuildSearch();
  void BuildBuckets();
  bool FinishSorted(std::span<const Symbol> late, bool tree_now);
  // Aliases whose choice waits for their names (Symbol::alias_group):
  // members [begin, end) of alias_members_, in the order perf meets them.
  struct AliasGroup {
    uint32_t begin, end;
  };
  void DeferAlias(Symbol* kept, const Symbol& next);
  void ResolveAlias(Symbol* s);
  void ResolveAliases();
  std::string ChooseAlias(const AliasGroup& g) const;
  std::vector<AliasGroup> alias_groups_;
  std::vector<Symbol> alias_members_;

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
  BigVector<Node> tree_;
  int32_t root_ = -1;
};

/// Reads a kallsyms file ("ffffffff81000000 T _text", module symbols with
/// "\t[mod]") into `core` (the kernel proper) and `modules` (per module
/// name, addresses absolute). Only text symbols (t, T, w, W) are kept, as
/// perf keeps them. `in_place`: a regular file is mapped, not read (the
/// tools, which guard mapped files against SIGBUS: io/mapped_file.h; the
/// library installs no handler and reads).
/// A file without module symbols whose lines come by address (a kernel
/// without modules, as the kernel writes it) becomes a lazy `core`: its
/// lines are indexed, and a symbol is made, with perf's clean-ups, when an
/// address in it is looked up: a system-wide recording hits a few thousand of
/// the 120,000 addresses, and making every symbol would cost far more than
/// those.
struct KallsymsModule {
  std::string name;  // without brackets
  SymbolTable table;
};
bool LoadKallsyms(const std::string& path, SymbolTable* core,
                  std::vector<KallsymsModule>* modules, std::string* err,
                  bool in_place = false);

/// Reads a JIT map (/tmp/perf-PID.map: "START SIZE NAME" in hex, one a
/// line), as perf does: no size fix-up, so a zero-size entry never matches.
bool LoadPerfMap(const std::string& path, SymbolTable* table,
                 std::string* err);

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SYMBOL_TABLE_H_
