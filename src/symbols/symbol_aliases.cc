#include "symbols/symbol_aliases.h"

#include <utility>

#include "symbols/symbol_demangle.h"

namespace flamefold {
namespace {

size_t LeadingUnderscores(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[n] == '_') ++n;
  return n;
}

// perf compares aliases by their demangled names.
void Demangle(Symbol* s, NameStore* names) {
  if (!s->mangled) return;
  s->name = names->Copy(DemangleSymbol(s->name));
  s->mangled = false;
}

}  // namespace

AliasChoice ChooseByAttributes(const Symbol& a, const Symbol& b) {
  bool a_sized = a.end > a.start, b_sized = b.end > b.start;
  if (a_sized != b_sized) {
    return a_sized ? AliasChoice::kFirst : AliasChoice::kSecond;
  }
  bool a_weak = a.binding == SymbolBinding::kWeak;
  bool b_weak = b.binding == SymbolBinding::kWeak;
  if (a_weak != b_weak) {
    return b_weak ? AliasChoice::kFirst : AliasChoice::kSecond;
  }
  bool a_global = a.binding == SymbolBinding::kGlobal;
  bool b_global = b.binding == SymbolBinding::kGlobal;
  if (a_global != b_global) {
    return a_global ? AliasChoice::kFirst : AliasChoice::kSecond;
  }
  return AliasChoice::kByName;
}

bool FirstByName(std::string_view a, std::string_view b) {
  size_t ua = LeadingUnderscores(a), ub = LeadingUnderscores(b);
  if (ua != ub) return ua < ub;
  return a.size() >= b.size();
}

// The names are demangled only when the choice comes down to them and they
// differ: most aliases are told apart by size or binding.
bool KeepFirst(Symbol* a, Symbol* b, NameStore* names) {
  AliasChoice c = ChooseByAttributes(*a, *b);
  if (c != AliasChoice::kByName) return c == AliasChoice::kFirst;
  if (a->mangled == b->mangled && a->name == b->name) return true;
  Demangle(a, names);
  Demangle(b, names);
  return FirstByName(a->name, b->name);
}

std::string ShownName(const Symbol& s) {
  std::string name = s.mangled ? DemangleSymbol(s.name) : std::string(s.name);
  if (s.plt) name += "@plt";
  return name;
}

std::string AliasGroups::Chosen(const Symbol& s) const {
  return Choose(groups_[s.alias_group - 1]);
}

// KeepFirst's comparison of the survivor with each next member, which by
// names alone keeps the first of the fewest leading underscores and, among
// those, the longest.
std::string AliasGroups::Choose(const Group& g) const {
  std::string kept = ShownName(members_[g.begin]);
  for (uint32_t i = g.begin + 1; i < g.end; ++i) {
    std::string next = ShownName(members_[i]);
    if (!FirstByName(kept, next)) kept = std::move(next);
  }
  return kept;
}

// Most deferred aliases are never hit, and demangling them all would be a
// large part of loading a big C++ binary's symbols.
void AliasGroups::Defer(Symbol* kept, const Symbol& next, NameStore* names) {
  if (kept->end != next.end || !(kept->mangled || next.mangled ||
                                 kept->alias_group != 0)) {
    Resolve(kept, names);
    Symbol copy = next;
    if (!KeepFirst(kept, &copy, names)) *kept = copy;
    return;
  }
  if (kept->alias_group == 0) {
    Symbol first = *kept;
    groups_.push_back({static_cast<uint32_t>(members_.size()),
                       static_cast<uint32_t>(members_.size() + 1)});
    members_.push_back(first);
    kept->alias_group = static_cast<uint32_t>(groups_.size());
  }
  members_.push_back(next);
  members_.back().alias_group = 0;
  groups_.back().end++;
}

void AliasGroups::ResolveAll(std::span<Symbol> syms, NameStore* names) {
  if (groups_.empty()) return;
  for (Symbol& s : syms) Resolve(&s, names);
  clear();
}

void AliasGroups::Resolve(Symbol* s, NameStore* names) {
  if (s->alias_group == 0) return;
  s->name = names->Copy(Choose(groups_[s->alias_group - 1]));
  s->mangled = false;
  s->alias_group = 0;
}

}  // namespace flamefold
