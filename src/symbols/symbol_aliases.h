// Symbol aliases: of several symbols at one address, which one perf keeps
// (its choose_best_symbol), so that an address resolves to the name perf
// script prints. perf asks, in this order: a size, then not weak, then
// global; then, by the demangled names, fewer leading underscores, then the
// longer name; else the first one seen.
//
// Demangling is dear and most aliases are told apart before their names,
// so names are demangled only when the choice comes down to them. A big C++
// binary still has many aliases told apart by names alone (a constructor's
// complete and base object versions), and most are never hit: AliasGroups
// keeps such a choice until the symbol is shown.
#ifndef FLAMEFOLD_SYMBOLS_SYMBOL_ALIASES_H_
#define FLAMEFOLD_SYMBOLS_SYMBOL_ALIASES_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "symbols/name_store.h"
#include "symbols/symbol.h"

namespace flamefold {

/// Of two symbols at one address, which perf keeps by what it asks before
/// their names (a size, then not weak, then global), or that the names
/// decide.
enum class AliasChoice { kFirst, kSecond, kByName };
AliasChoice ChooseByAttributes(const Symbol& a, const Symbol& b);

/// By the (demangled) names alone: whether `a` is kept over `b` (fewer
/// leading underscores, then the longer name; else the first).
bool FirstByName(std::string_view a, std::string_view b);

/// True when `a` is the one to keep of two symbols at the same address.
/// Where the names decide and differ, both are demangled first (into
/// `names`), and stay so.
bool KeepFirst(Symbol* a, Symbol* b, NameStore* names);

/// The name of `s` as perf prints it, apart from its alias group:
/// demangled, with "@plt" after a PLT entry's.
std::string ShownName(const Symbol& s);

/// The alias choices of one table that wait for the symbol to be shown.
/// A symbol with an alias_group stands for the group's members, in the
/// order perf meets them; its own name is the first member's.
class AliasGroups {
 public:
  /// Symbols `kept` (the survivor so far) and `next` at one address, told
  /// apart by their names alone: the choice waits, and both join kept's
  /// group, unless their ends differ (the choice then decides where the
  /// symbol ends) or neither name needs demangling; then `kept` becomes the
  /// one perf keeps at once. `names` keeps what is demangled.
  void Defer(Symbol* kept, const Symbol& next, NameStore* names);
  /// The demangled name of the member of `s`'s group (s.alias_group != 0)
  /// that perf keeps.
  std::string Chosen(const Symbol& s) const;
  /// Every deferred choice among `syms` made now: each takes the name perf
  /// keeps, demangled (in `names`); the groups are gone after.
  void ResolveAll(std::span<Symbol> syms, NameStore* names);
  bool empty() const { return groups_.empty(); }
  void clear() {
    groups_.clear();
    members_.clear();
  }

 private:
  // Members [begin, end) of members_.
  struct Group {
    uint32_t begin, end;
  };
  void Resolve(Symbol* s, NameStore* names);
  std::string Choose(const Group& g) const;
  std::vector<Group> groups_;
  std::vector<Symbol> members_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_SYMBOLS_SYMBOL_ALIASES_H_
