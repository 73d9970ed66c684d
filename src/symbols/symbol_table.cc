#include "symbols/symbol_table.h"


#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/hex.h"
#include "io/file_source.h"
#include "io/line_reader.h"
#include "io/mapped_file.h"
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

// Of two symbols at the same address, which perf keeps (choose_best_symbol)
// by what it asks before their names: a size, then not weak, then global.
enum class AliasChoice { kFirst, kSecond, kByName };
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

// By the (demangled) names: fewer leading underscores, then the longer
// name; else the first.
bool FirstByName(std::string_view a, std::string_view b) {
  size_t ua = LeadingUnderscores(a), ub = LeadingUnderscores(b);
  if (ua != ub) return ua < ub;
  return a.size() >= b.size();
}

// True when `a` is the one to keep of two symbols at the same address
// (perf's choose_best_symbol). The names are demangled only when the
// choice comes down to them and they differ: demangling every alias took
// a tenth of the replay, and most are told apart by size or binding.
bool KeepFirst(Symbol* a, Symbol* b, NameStore* names) {
  AliasChoice c = ChooseByAttributes(*a, *b);
  if (c != AliasChoice::kByName) return c == AliasChoice::kFirst;
  if (a->mangled == b->mangled && a->name == b->name) return true;
  Demangle(a, names);
  Demangle(b, names);
  return FirstByName(a->name, b->name);
}

uint64_t RoundUpPage(uint64_t v) { return (v + 4095) & ~uint64_t{4095}; }

// The positions of `syms` ordered by start, equal starts in the order
// given: a least-significant-digit radix sort of (start, position) pairs,
// 11 bits a pass, passing over the digits that all starts share (most of
// the high ones). std::stable_sort of the 40-byte symbols was a quarter of
// loading a binary's 30,000 dynamic symbols.
struct StartKey {
  uint64_t start;
  uint32_t at;  // the symbol's position
};
// Returns the keys in order, which `buf` holds (with room for the sort's
// second copy, in one block faulted in at once and not zeroed: for a big
// binary, two fresh vectors took more page faults than the sort took time).
std::span<const StartKey> OrderByStart(const BigVector<Symbol>& syms,
                                       BigArray<StartKey>* buf) {
  using Key = StartKey;
  constexpr int kBits = 11;
  constexpr size_t kDigits = size_t{1} << kBits;
  const size_t n = syms.size();
  buf->resize_for_overwrite(2 * n);
  BigPrefault(buf->data(), 2 * n * sizeof(Key), 2 * n * sizeof(Key));
  Key* keys = buf->data();
  Key* other = keys + n;
  uint64_t any = 0, all = ~uint64_t{0};  // bits set in some start, in all
  for (size_t i = 0; i < n; ++i) {
    keys[i] = Key{syms[i].start, static_cast<uint32_t>(i)};
    any |= syms[i].start;
    all &= syms[i].start;
  }
  std::vector<size_t> count(kDigits + 1);
  for (int shift = 0; shift < 64; shift += kBits) {
    if ((((any ^ all) >> shift) & (kDigits - 1)) == 0) {
      continue;  // one digit for all, not even counted: the order stays
    }
    std::fill(count.begin(), count.end(), 0);
    for (size_t i = 0; i < n; ++i) {
      ++count[((keys[i].start >> shift) & (kDigits - 1)) + 1];
    }
    for (size_t d = 1; d <= kDigits; ++d) count[d] += count[d - 1];
    for (size_t i = 0; i < n; ++i) {
      const Key& k = keys[i];
      other[count[(k.start >> shift) & (kDigits - 1)]++] = k;
    }
    std::swap(keys, other);
  }
  return {keys, n};
}

}  // namespace

// A copy of `syms` sorted by start, stable, with room for `room` more
// symbols; empty when `syms` is sorted already (kallsyms mostly is) or
// empty.
BigVector<Symbol> SymbolTable::SortedByStart(const BigVector<Symbol>& syms,
                                             size_t room) {
  auto by_start = [](const Symbol& a, const Symbol& b) {
    return a.start < b.start;
  };
  BigVector<Symbol> sorted;
  if (std::is_sorted(syms.begin(), syms.end(), by_start)) return sorted;
  sorted.reserve(syms.size() + room);
  BigPrefaultCapacity(&sorted);
  BigArray<StartKey> buf;
  for (const StartKey& k : OrderByStart(syms, &buf)) {
    sorted.push_back(syms[k.at]);
  }
  return sorted;
}

namespace {

bool IsModuleName(std::string_view name) {
  return name.find('[') != std::string::npos;
}

}  // namespace

void SymbolTable::Add(uint64_t start, uint64_t size, std::string_view name,
                      SymbolBinding binding, bool mangled) {
  Eager();
  syms_.push_back(
      Symbol{start, start + size, names_.Copy(name), binding, mangled});
}

namespace {

// The name of `s` as perf prints it, apart from its alias group.
std::string Shown(const Symbol& s) {
  std::string name = s.mangled ? DemangleSymbol(s.name) : std::string(s.name);
  if (s.plt) name += "@plt";
  return name;
}

}  // namespace

std::string SymbolTable::Display(const Symbol& s) const {
  if (s.alias_group == 0) return Shown(s);
  return ChooseAlias(alias_groups_[s.alias_group - 1]);
}

// The demangled name of the member perf keeps: KeepFirst's comparison of
// the survivor with each next member, which by names alone keeps the
// first of the fewest leading underscores and, among those, the longest.
std::string SymbolTable::ChooseAlias(const AliasGroup& g) const {
  std::string kept = Shown(alias_members_[g.begin]);
  for (uint32_t i = g.begin + 1; i < g.end; ++i) {
    std::string next = Shown(alias_members_[i]);
    if (!FirstByName(kept, next)) kept = std::move(next);
  }
  return kept;
}

// Symbols `kept` (the survivor so far) and `next` at one address, told
// apart by their names alone, which must be demangled: unless their ends
// differ (the choice then decides where the symbol ends), the choice waits
// until the symbol is shown (Display), and both join kept's alias group.
// Most such aliases (a C++ constructor's complete and base object
// versions) are never hit, and demangling them was a fifth of loading a
// big C++ binary's symbols. Where the names are compared now, `kept`
// becomes the one perf keeps.
void SymbolTable::DeferAlias(Symbol* kept, const Symbol& next) {
  if (kept->end != next.end || !(kept->mangled || next.mangled ||
                                 kept->alias_group != 0)) {
    ResolveAlias(kept);
    Symbol copy = next;
    if (!KeepFirst(kept, &copy, &names_)) *kept = copy;
    return;
  }
  if (kept->alias_group == 0) {
    Symbol first = *kept;
    alias_groups_.push_back({static_cast<uint32_t>(alias_members_.size()),
                             static_cast<uint32_t>(alias_members_.size() + 1)});
    alias_members_.push_back(first);
    kept->alias_group = static_cast<uint32_t>(alias_groups_.size());
  }
  alias_members_.push_back(next);
  alias_members_.back().alias_group = 0;
  alias_groups_.back().end++;
}

// Every deferred alias choice made now, before the symbols are sorted or
// cleaned up again.
void SymbolTable::ResolveAliases() {
  if (alias_groups_.empty()) return;
  for (Symbol& s : syms_) ResolveAlias(&s);
  alias_groups_.clear();
  alias_members_.clear();
}

// The deferred choice of `s`'s alias group made now: `s` takes the name
// perf keeps, demangled.
void SymbolTable::ResolveAlias(Symbol* s) {
  if (s->alias_group == 0) return;
  s->name = names_.Copy(ChooseAlias(alias_groups_[s->alias_group - 1]));
  s->mangled = false;
  s->alias_group = 0;
}

void SymbolTable::Finish(bool kallsyms, bool fixups) {
  Eager();
  if (fixups) {
    CleanUp(kallsyms);
  } else {
    ResolveAliases();
    SortByStart();
  }
  tree_.clear();
  root_ = -1;
  BuildSearch();
}

void SymbolTable::CleanUp(bool kallsyms) {
  Eager();
  ResolveAliases();
  SortByStart();
  if (syms_.empty()) return;
  // Symbols without a size end where the next one starts. Whether a
  // kallsyms name is a module's is asked once per symbol: the 120,000
  // names of /proc/kallsyms were scanned twice each.
  bool prev_module = kallsyms && IsModuleName(syms_[0].name);
  for (size_t i = 0; i + 1 < syms_.size(); ++i) {
    Symbol& prev = syms_[i];
    const Symbol& curr = syms_[i + 1];
    bool curr_module = kallsyms && IsModuleName(curr.name);
    bool was_module = std::exchange(prev_module, curr_module);
    if (prev.end != prev.start) continue;
    if (was_module != curr_module) {
      prev.end = RoundUpPage(prev.end + 4096);
    } else {
      prev.end = curr.start;
    }
  }
  Symbol& last = syms_.back();
  if (last.end == last.start) last.end = RoundUpPage(last.start) + 4096;
  // One symbol per address (compacted in place).
  size_t out = 0;
  for (size_t i = 0; i < syms_.size(); ++i) {
    Symbol& s = syms_[i];
    if (out > 0 && syms_[out - 1].start == s.start) {
      Symbol& kept = syms_[out - 1];
      if (!KeepFirst(&kept, &s, &names_)) kept = std::move(s);
      continue;
    }
    if (out != i) syms_[out] = std::move(s);
    ++out;
  }
  syms_.resize(out);
}

void SymbolTable::SortByStart() {
  // Stable: of equal starts, the first added comes first, as in perf's
  // tree, which puts an equal key to the right. (kallsyms comes sorted.)
  BigVector<Symbol> sorted = SortedByStart(syms_);
  if (!sorted.empty()) syms_ = std::move(sorted);
}

void SymbolTable::BuildSearch() {
  search_.clear();
  bounds_.clear();
  buckets_.clear();
  if (root_ < 0) {
    bounds_.reserve(syms_.size());
    BigPrefaultCapacity(&bounds_);
    for (const Symbol& s : syms_) bounds_.push_back({s.start, s.end});
    BuildBuckets();
    return;
  }
  std::vector<int32_t> order{root_};  // tree nodes, breadth first
  order.reserve(tree_.size());
  search_.reserve(tree_.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const Node& n = tree_[order[i]];
    const Symbol& sym = syms_[n.sym];
    SearchNode out{sym.start, sym.end, -1, -1, n.sym};
    if (n.left >= 0) {
      out.left = static_cast<int32_t>(order.size());
      order.push_back(n.left);
    }
    if (n.right >= 0) {
      out.right = static_cast<int32_t>(order.size());
      order.push_back(n.right);
    }
    search_.push_back(out);
  }
}

void SymbolTable::BuildBuckets() {
  if (bounds_.empty()) return;
  uint64_t base = bounds_.front().start;
  uint64_t range = bounds_.back().start - base;
  size_t n = bounds_.size();
  // About as many buckets as symbols.
  bucket_shift_ = 0;
  while (bucket_shift_ < 63 && (range >> bucket_shift_) >= n) ++bucket_shift_;
  size_t count = static_cast<size_t>(range >> bucket_shift_) + 1;
  buckets_.reserve(count + 1);
  BigPrefaultCapacity(&buckets_);
  buckets_.resize(count + 1);
  size_t j = 0;
  for (size_t b = 0; b < count; ++b) {
    uint64_t from = base + (static_cast<uint64_t>(b) << bucket_shift_);
    while (j < n && bounds_[j].start < from) ++j;
    buckets_[b] = static_cast<uint32_t>(j);
  }
  buckets_[count] = static_cast<uint32_t>(n);
}

const Symbol* SymbolTable::Find(uint64_t addr) const {
  if (lazy_) return FindLazy(addr);
  if (const Symbol* in_tree = nullptr;
      lazy_tree_ && FindInLazyTree(addr, &in_tree)) {
    return in_tree;
  }
  if (!search_.empty()) {
    // perf's symbols__find: left when below the start, right when at or
    // past the end, else found.
    for (int32_t n = 0; n >= 0;) {
      const SearchNode& s = search_[n];
      if (addr < s.start) {
        n = s.left;
      } else if (addr >= s.end) {
        n = s.right;
      } else {
        return &syms_[s.sym];
      }
    }
    return nullptr;
  }
  if (bounds_.empty() || bounds_.size() != syms_.size()) {
    return nullptr;  // empty, or not finished
  }
  if (addr < bounds_.front().start) return nullptr;
  // The closest start at or below `addr` is in its bucket, or is the one
  // before the bucket's first (see buckets_).
  size_t last_bucket = buckets_.size() - 2;
  uint64_t b = std::min<uint64_t>(
      (addr - bounds_.front().start) >> bucket_shift_, last_bucket);
  auto it = std::upper_bound(
      bounds_.begin() + buckets_[b], bounds_.begin() + buckets_[b + 1], addr,
      [](uint64_t a, const Bounds& s) { return a < s.start; });
  size_t i = static_cast<size_t>(it - bounds_.begin());
  if (i == 0) return nullptr;
  return addr < bounds_[i - 1].end ? &syms_[i - 1] : nullptr;
}

// The tree below is a plain red-black tree (insertion and deletion as in
// Cormen et al., deleting a node with two children by moving its successor
// up), which is what the kernel's lib/rbtree.c implements; perf's symbol
// tree is one, keyed by start address with equal keys going right.

void SymbolTable::SetChild(int32_t parent, int32_t old_child,
                           int32_t new_child) {
  if (parent < 0) {
    root_ = new_child;
  } else if (tree_[parent].left == old_child) {
    tree_[parent].left = new_child;
  } else {
    tree_[parent].right = new_child;
  }
  if (new_child >= 0) tree_[new_child].parent = parent;
}

void SymbolTable::RotateLeft(int32_t x) {
  int32_t y = tree_[x].right;
  int32_t p = tree_[x].parent;
  tree_[x].right = tree_[y].left;
  if (tree_[y].left >= 0) tree_[tree_[y].left].parent = x;
  SetChild(p, x, y);
  tree_[y].left = x;
  tree_[x].parent = y;
}

void SymbolTable::RotateRight(int32_t x) {
  int32_t y = tree_[x].left;
  int32_t p = tree_[x].parent;
  tree_[x].left = tree_[y].right;
  if (tree_[y].right >= 0) tree_[tree_[y].right].parent = x;
  SetChild(p, x, y);
  tree_[y].right = x;
  tree_[x].parent = y;
}

void SymbolTable::TreeInsert(uint32_t sym) {
  int32_t z = static_cast<int32_t>(tree_.size());
  uint64_t key = syms_[sym].start;
  tree_.push_back(Node{-1, -1, -1, true, sym, key});
  int32_t parent = -1;
  bool left = false;
  for (int32_t n = root_; n >= 0;) {
    parent = n;
    left = key < tree_[n].start;
    n = left ? tree_[n].left : tree_[n].right;
  }
  tree_[z].parent = parent;
  if (parent < 0) {
    root_ = z;
  } else if (left) {
    tree_[parent].left = z;
  } else {
    tree_[parent].right = z;
  }
  auto red = [&](int32_t n) { return n >= 0 && tree_[n].red; };
  while (red(tree_[z].parent)) {
    int32_t p = tree_[z].parent;
    int32_t g = tree_[p].parent;
    if (p == tree_[g].left) {
      int32_t u = tree_[g].right;
      if (red(u)) {
        tree_[p].red = tree_[u].red = false;
        tree_[g].red = true;
        z = g;
        continue;
      }
      if (z == tree_[p].right) {
        z = p;
        RotateLeft(z);
        p = tree_[z].parent;
      }
      tree_[p].red = false;
      tree_[g].red = true;
      RotateRight(g);
    } else {
      int32_t u = tree_[g].left;
      if (red(u)) {
        tree_[p].red = tree_[u].red = false;
        tree_[g].red = true;
        z = g;
        continue;
      }
      if (z == tree_[p].left) {
        z = p;
        RotateRight(z);
        p = tree_[z].parent;
      }
      tree_[p].red = false;
      tree_[g].red = true;
      RotateLeft(g);
    }
  }
  tree_[root_].red = false;
}

void SymbolTable::TreeErase(int32_t z) {
  int32_t x = -1, x_parent = -1;
  bool removed_red = tree_[z].red;
  if (tree_[z].left < 0) {
    x = tree_[z].right;
    x_parent = tree_[z].parent;
    SetChild(tree_[z].parent, z, x);
  } else if (tree_[z].right < 0) {
    x = tree_[z].left;
    x_parent = tree_[z].parent;
    SetChild(tree_[z].parent, z, x);
  } else {
    int32_t y = tree_[z].right;
    while (tree_[y].left >= 0) y = tree_[y].left;
    removed_red = tree_[y].red;
    x = tree_[y].right;
    if (tree_[y].parent == z) {
      x_parent = y;
    } else {
      x_parent = tree_[y].parent;
      SetChild(tree_[y].parent, y, x);
      tree_[y].right = tree_[z].right;
      tree_[tree_[y].right].parent = y;
    }
    SetChild(tree_[z].parent, z, y);
    tree_[y].left = tree_[z].left;
    tree_[tree_[y].left].parent = y;
    tree_[y].red = tree_[z].red;
  }
  tree_[z].left = tree_[z].right = tree_[z].parent = -1;
  if (!removed_red) EraseFixup(x, x_parent);
}

void SymbolTable::EraseFixup(int32_t x, int32_t parent) {
  auto red = [&](int32_t n) { return n >= 0 && tree_[n].red; };
  while (x != root_ && !red(x)) {
    if (x == tree_[parent].left) {
      int32_t w = tree_[parent].right;
      if (red(w)) {
        tree_[w].red = false;
        tree_[parent].red = true;
        RotateLeft(parent);
        w = tree_[parent].right;
      }
      if (!red(tree_[w].left) && !red(tree_[w].right)) {
        tree_[w].red = true;
        x = parent;
        parent = tree_[x].parent;
      } else {
        if (!red(tree_[w].right)) {
          tree_[tree_[w].left].red = false;
          tree_[w].red = true;
          RotateRight(w);
          w = tree_[parent].right;
        }
        tree_[w].red = tree_[parent].red;
        tree_[parent].red = false;
        if (tree_[w].right >= 0) tree_[tree_[w].right].red = false;
        RotateLeft(parent);
        x = root_;
        parent = -1;
      }
    } else {
      int32_t w = tree_[parent].left;
      if (red(w)) {
        tree_[w].red = false;
        tree_[parent].red = true;
        RotateRight(parent);
        w = tree_[parent].left;
      }
      if (!red(tree_[w].left) && !red(tree_[w].right)) {
        tree_[w].red = true;
        x = parent;
        parent = tree_[x].parent;
      } else {
        if (!red(tree_[w].left)) {
          tree_[tree_[w].right].red = false;
          tree_[w].red = true;
          RotateLeft(w);
          w = tree_[parent].left;
        }
        tree_[w].red = tree_[parent].red;
        tree_[parent].red = false;
        if (tree_[w].left >= 0) tree_[tree_[w].left].red = false;
        RotateRight(parent);
        x = root_;
        parent = -1;
      }
    }
  }
  if (x >= 0) tree_[x].red = false;
}

int32_t SymbolTable::First() const {
  int32_t n = root_;
  if (n < 0) return -1;
  while (tree_[n].left >= 0) n = tree_[n].left;
  return n;
}

int32_t SymbolTable::Next(int32_t n) const {
  if (tree_[n].right >= 0) {
    n = tree_[n].right;
    while (tree_[n].left >= 0) n = tree_[n].left;
    return n;
  }
  int32_t p = tree_[n].parent;
  while (p >= 0 && n == tree_[p].right) {
    n = p;
    p = tree_[p].parent;
  }
  return p;
}

namespace {

// The addresses where a search of perf's tree of `seq` (finished, sorted)
// may find other than the closest symbol at or below: the ranges of the
// symbols that are not clean, merged. A clean symbol holds bytes, starts
// after its neighbours' starts and ends before the next one starts. An
// address in a clean symbol and outside the overlaps is in no other
// symbol, so each node of the tree the walk meets sends it towards that
// symbol (were a node's start below it and its end above the address, the
// node would hold the address), and the walk finds it, as a binary search
// does. An address in no symbol is found by neither.
std::vector<std::pair<uint64_t, uint64_t>> OverlapRanges(
    const BigVector<Symbol>& seq) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < seq.size(); ++i) {
    const Symbol& s = seq[i];
    // An earlier symbol reaching into this one is not clean itself, and
    // its range is among the overlaps: only the neighbours are compared.
    bool clean = s.end > s.start &&
                 (i == 0 || seq[i - 1].start < s.start) &&
                 (i + 1 == seq.size() || (seq[i + 1].start > s.start &&
                                          s.end <= seq[i + 1].start));
    if (clean || s.end <= s.start) continue;
    if (!out.empty() && s.start <= out.back().second) {
      out.back().second = std::max(out.back().second, s.end);
    } else {
      out.emplace_back(s.start, s.end);
    }
  }
  return out;
}

}  // namespace

// What FinishAsPerfTree's tree would be, built when first needed: the
// symbols as added and the late ones, and where the tree's answers may
// differ from the sorted table's (OverlapRanges). Most look-ups land
// outside those; building the tree (a red-black insertion a symbol, in
// the order added) was half of loading libc's 8,000 debug symbols.
struct SymbolTable::LazyTree {
  BigVector<Symbol> added;
  std::vector<Symbol> late;
  std::vector<std::pair<uint64_t, uint64_t>> overlaps;
  std::once_flag built;
  SymbolTable tree;  // perf's tree of `added` and `late`, once built

  bool Covers(uint64_t addr) const {
    auto it = std::upper_bound(
        overlaps.begin(), overlaps.end(), addr,
        [](uint64_t a, const std::pair<uint64_t, uint64_t>& r) {
          return a < r.first;
        });
    return it != overlaps.begin() && addr < std::prev(it)->second;
  }
  SymbolTable& Tree() {
    std::call_once(built, [this] {
      tree.syms_ = std::move(added);
      tree.FinishAsPerfTree(late, false);
    });
    return tree;
  }
};

bool SymbolTable::FindInLazyTree(uint64_t addr, const Symbol** found) const {
  if (!lazy_tree_->Covers(addr)) return false;
  *found = lazy_tree_->Tree().Find(addr);
  return true;
}

// The steps of the tree version below depend on the tree's order alone,
// which is the symbols stably sorted by start, so they run here on a
// sorted copy. When the result holds overlapping symbols (only there does
// the tree's shape decide what a search finds), the table keeps its
// symbols as added for the tree, built at the first look-up that needs it
// (LazyTree), unless `tree_now` (then it returns false, changing nothing).
bool SymbolTable::FinishSorted(std::span<const Symbol> late, bool tree_now) {
  auto by_start = [](const Symbol& a, const Symbol& b) {
    return a.start < b.start;
  };
  ResolveAliases();  // an earlier finish's groups: none is left after it
  // Room for the late symbols (a binary's PLT entries) merged in below:
  // growing the vector then moved a big binary's whole table (1.2 MB of
  // fresh pages for cc1plus).
  BigVector<Symbol> seq = SortedByStart(syms_, late.size());
  if (seq.empty()) {
    seq.reserve(syms_.size() + late.size());
    seq.assign(syms_.begin(), syms_.end());
  }
  for (size_t i = 0; i + 1 < seq.size(); ++i) {
    if (seq[i].end == seq[i].start) seq[i].end = seq[i + 1].start;
  }
  if (!seq.empty() && seq.back().end == seq.back().start) {
    seq.back().end = RoundUpPage(seq.back().start) + 4096;
  }
  size_t out = 0;
  for (size_t i = 0; i < seq.size(); ++i) {
    if (out > 0 && seq[out - 1].start == seq[i].start) {
      Symbol& kept = seq[out - 1];
      const Symbol& next = seq[i];
      AliasChoice c = ChooseByAttributes(kept, next);
      if (c == AliasChoice::kSecond) {
        kept = next;
      } else if (c == AliasChoice::kByName &&
                 !(kept.alias_group == 0 && kept.mangled == next.mangled &&
                   kept.name == next.name)) {
        DeferAlias(&kept, next);
      }
      continue;
    }
    seq[out++] = seq[i];
  }
  // Late symbols go after those of equal start, as the tree puts them:
  // merged in from the back, in place.
  std::vector<Symbol> extra(late.begin(), late.end());
  std::stable_sort(extra.begin(), extra.end(), by_start);
  seq.resize(out + extra.size());
  for (size_t k = seq.size(), i = out, j = extra.size(); j > 0;) {
    if (i > 0 && seq[i - 1].start > extra[j - 1].start) {
      seq[--k] = seq[--i];
    } else {
      seq[--k] = extra[--j];
    }
  }
  bool overlap = false;
  for (size_t i = 0; !overlap && i < seq.size(); ++i) {
    overlap = seq[i].end < seq[i].start ||
              (i + 1 < seq.size() && seq[i].end > seq[i + 1].start);
  }
  if (overlap && tree_now) {
    alias_groups_.clear();
    alias_members_.clear();
    return false;
  }
  if (overlap) {
    auto lazy = std::make_shared<LazyTree>();
    lazy->added = std::move(syms_);
    lazy->late.assign(late.begin(), late.end());
    lazy->overlaps = OverlapRanges(seq);
    lazy->tree.ShareNames(*this);
    lazy_tree_ = std::move(lazy);
  }
  syms_ = std::move(seq);
  tree_.clear();
  root_ = -1;
  BuildSearch();
  return true;
}

void SymbolTable::FinishAsPerfTree(std::span<const Symbol> late,
                                   bool allow_sorted) {
  Eager();
  if (FinishSorted(late, !allow_sorted)) return;
  tree_.clear();
  root_ = -1;
  tree_.reserve(syms_.size() + late.size());
  for (uint32_t i = 0; i < syms_.size(); ++i) TreeInsert(i);
  // Ends of size-less symbols, in tree order.
  for (int32_t n = First(); n >= 0;) {
    int32_t next = Next(n);
    if (next < 0) break;
    Symbol& prev = syms_[tree_[n].sym];
    if (prev.end == prev.start) prev.end = syms_[tree_[next].sym].start;
    n = next;
  }
  if (int32_t n = root_; n >= 0) {
    while (tree_[n].right >= 0) n = tree_[n].right;
    Symbol& last = syms_[tree_[n].sym];
    if (last.end == last.start) last.end = RoundUpPage(last.start) + 4096;
  }
  // One symbol per address, perf's walk: keep comparing the survivor with
  // the next one.
  for (int32_t curr = First(); curr >= 0;) {
    int32_t next = Next(curr);
    if (next < 0) break;
    Symbol& a = syms_[tree_[curr].sym];
    Symbol& b = syms_[tree_[next].sym];
    if (a.start != b.start) {
      curr = next;
      continue;
    }
    if (KeepFirst(&a, &b, &names_)) {
      TreeErase(next);
    } else {
      TreeErase(curr);
      curr = next;
    }
  }
  for (const Symbol& s : late) {
    syms_.push_back(s);
    TreeInsert(static_cast<uint32_t>(syms_.size() - 1));
  }
  BuildSearch();
}

namespace {

// The whole of `path`, which `names` keeps: `in_place`, a regular file
// (perf's copy in the build-id cache) mapped, else (/proc/kallsyms has no
// size to ask for) read in big pieces straight into a block of `names`;
// false when it cannot be opened. Reading the 5 MB copy into fresh memory
// faulted in 1,300 pages, a quarter of those a perf.data fold took, while
// the replay waited for the same address-space lock to grow its tables.
bool ReadWhole(const std::string& path, bool in_place, NameStore* names,
               std::string_view* text) {
  std::string err;
  const int fd = OpenFileFd(path, &err);
  if (fd < 0) return false;
  auto source = std::make_shared<FdSource>(fd, true);
  std::unique_ptr<MappedFile> map;
  if (in_place) map = MapSource(*source, 1, path);
  if (map) {
    map->Prefetch(map->bytes().size());  // every line is read at once
    *text = map->bytes();
    // The file stays open while it is mapped.
    names->Keep(std::shared_ptr<const void>(
        map.release(), [source](const void* m) {
          delete static_cast<const MappedFile*>(m);
        }));
    return true;
  }
  size_t cap = 16u << 20, used = 0;
  char* buf = names->Allocate(cap);
  for (;;) {
    if (used == cap) {  // a bigger block; the old one goes with the store
      char* bigger = names->Allocate(cap * 2);
      std::memcpy(bigger, buf, used);
      buf = bigger;
      cap *= 2;
    }
    size_t got = 0;
    if (!source->Read(buf + used, cap - used, &got, &err) || got == 0) break;
    used += got;
  }
  *text = std::string_view(buf, used);
  return true;
}

// The kept lines of a kallsyms file: its text symbols (t, T, w, W) in the
// file's order, each as compact as its text allows (a symbol is made only
// when asked for).
struct KallsymsLine {
  uint64_t start;
  uint32_t name_at;  // offset of the name in the text
  uint16_t name_size;
  SymbolBinding binding;
};
static_assert(sizeof(KallsymsLine) == 16);

// Where the line from `p` ends (its '\n', else `end`), and in `*marked`
// whether a '[' or a '\t' (a module's name: "foo\t[mod]") comes before.
// One pass finds both: the names were scanned three times, a memchr call a
// line and two searches a symbol.
const char* KallsymsLineEnd(const char* p, const char* end, bool* marked) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i bracket = _mm_set1_epi8('[');
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_or_si128(
        _mm_cmpeq_epi8(v, nl),
        _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, bracket)));
    if (int mask = _mm_movemask_epi8(hit)) {
      p += __builtin_ctz(static_cast<unsigned>(mask));
      if (*p == '\n') return p;
      break;  // a mark: the rest of the line below
    }
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    if (*p == '\n') return p;
    if (*p == '\t' || *p == '[') {
      *marked = true;
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
      return nl ? static_cast<const char*>(nl) : end;
    }
  }
  return end;
}

// Calls `visit(addr, name, binding, marked)` for each kept line of
// kallsyms `text` ("ffffffff81000000 T _text", "ffffffffc0a01000 t
// foo\t[mod]"), in order: t, T, w and W lines, as perf keeps them, but for
// empty names and names starting with '$'; `marked`: the name holds '['
// or '\t' (a module's). `visit` returns false to stop.
template <typename Visit>
void ScanKallsyms(std::string_view text, Visit visit) {
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    // Up to the '\n' ParseHex stops at, as it stops at any non-digit.
    uint64_t addr = 0;
    size_t left = static_cast<size_t>(end - p);
    size_t n = ParseHex(std::string_view(p, left), &addr);
    // "ADDR T NAME": a space, the type, one more byte (not the line's end),
    // then the name.
    bool ok = n > 0 && n + 2 < left && p[n] == ' ' && p[n + 2] != '\n';
    char type = ok ? p[n + 1] : '\0';
    char up = type >= 'a' && type <= 'z' ? static_cast<char>(type - 32) : type;
    if (!ok || (up != 'T' && up != 'W')) {
      const void* nl = std::memchr(p, '\n', left);
      p = nl ? static_cast<const char*>(nl) + 1 : end;
      continue;
    }
    const char* name = p + n + 3;
    bool marked = false;
    const char* eol = KallsymsLineEnd(name, end, &marked);
    p = eol + 1;
    if (eol == name || *name == '$') continue;
    SymbolBinding b = up == 'W'     ? SymbolBinding::kWeak
                      : type == 'T' ? SymbolBinding::kGlobal
                                    : SymbolBinding::kLocal;
    if (!visit(addr, std::string_view(name, static_cast<size_t>(eol - name)),
               b, marked)) {
      return;
    }
  }
}

// The kept lines of kallsyms `text` (ScanKallsyms) as KallsymsLines;
// false when one does not fit one (never in a real file). `*marked` tells
// whether a kept name holds '[' or '\t'.
bool IndexKallsyms(std::string_view text, BigVector<KallsymsLine>* lines,
                   bool* marked) {
  if (text.size() > UINT32_MAX) return false;
  lines->reserve(text.size() / 40);
  BigPrefaultCapacity(lines);
  bool fits = true;
  ScanKallsyms(text, [&](uint64_t addr, std::string_view name,
                         SymbolBinding b, bool name_marked) {
    fits = name.size() <= UINT16_MAX;
    *marked |= name_marked;
    if (fits) {
      lines->push_back(
          KallsymsLine{addr, static_cast<uint32_t>(name.data() - text.data()),
                       static_cast<uint16_t>(name.size()), b});
    }
    return fits;
  });
  return fits;
}

}  // namespace

// A kernel table made lazily: the kept lines of a kallsyms file that has
// no module symbols and lists them by address, as the kernel does. What
// CleanUp (kallsyms) and Finish make of all of them, Find makes of the
// lines at one address when one is looked up:
//   - a line's symbol ends where the next line's starts (an earlier one of
//     several at one address ends where it starts); the last line's ends
//     a page past its start, rounded up to a page;
//   - of the lines at one address, KeepFirst chooses in the lines' order;
//   - the address found is in the closest start at or below it, if that
//     symbol holds it.
// Thread-safe: the symbols made are kept under a lock, each at a stable
// address (the callers key their caches by it).
struct SymbolTable::KallsymsIndex {
  std::string_view text;
  BigVector<KallsymsLine> lines;
  // Every kStride-th line's start: a look-up searches these (30 KB for
  // 120,000 lines, in the cache), then kStride lines.
  static constexpr size_t kStride = 32;
  std::vector<uint64_t> top;

  std::mutex mu;
  std::unordered_map<size_t, Symbol> made;  // by the last line at its start
  BigVector<Symbol> all;  // every symbol, made by All()
  bool all_made = false;

  Symbol LineSymbol(size_t i, uint64_t end) const {
    const KallsymsLine& l = lines[i];
    return Symbol{l.start, end, text.substr(l.name_at, l.name_size),
                  l.binding, false};
  }

  // The symbol perf keeps at the start of line `last`, the last line there.
  Symbol Kept(size_t last) const {
    uint64_t start = lines[last].start;
    uint64_t end = last + 1 < lines.size() ? lines[last + 1].start
                                           : RoundUpPage(start) + 4096;
    size_t first = last;
    while (first > 0 && lines[first - 1].start == start) --first;
    NameStore unused;  // kallsyms names are never demangled
    Symbol kept = LineSymbol(first, first == last ? end : start);
    for (size_t i = first + 1; i <= last; ++i) {
      Symbol next = LineSymbol(i, i == last ? end : start);
      if (!KeepFirst(&kept, &next, &unused)) kept = next;
    }
    return kept;
  }

  const Symbol* Find(uint64_t addr) {
    if (lines.empty() || addr < lines.front().start) return nullptr;
    size_t block = static_cast<size_t>(
        std::upper_bound(top.begin(), top.end(), addr) - top.begin() - 1);
    auto from = lines.begin() + block * kStride;
    auto to = lines.begin() + std::min(lines.size(), (block + 1) * kStride);
    auto it = std::upper_bound(
        from, to, addr,
        [](uint64_t a, const KallsymsLine& l) { return a < l.start; });
    size_t last = static_cast<size_t>(it - lines.begin()) - 1;
    std::lock_guard<std::mutex> lock(mu);
    auto [at, added] = made.try_emplace(last);
    if (added) at->second = Kept(last);
    return addr < at->second.end ? &at->second : nullptr;
  }

  const BigVector<Symbol>& All() {
    std::lock_guard<std::mutex> lock(mu);
    if (all_made) return all;
    SymbolTable t;
    BigVector<Symbol>& syms = t.syms_;
    syms.reserve(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
      const KallsymsLine& l = lines[i];
      syms.push_back(LineSymbol(i, l.start));
    }
    t.CleanUp(true);
    all = std::move(t.syms_);
    all_made = true;
    return all;
  }
};

const Symbol* SymbolTable::FindLazy(uint64_t addr) const {
  return lazy_->Find(addr);
}

const BigVector<Symbol>& SymbolTable::symbols() const {
  return lazy_ ? lazy_->All() : syms_;
}

// A lazy table becomes an ordinary one, finished, before it changes: a
// kallsyms index makes all its symbols; a table waiting for its tree
// becomes the tree, as FinishAsPerfTree would have left it.
void SymbolTable::Eager() {
  if (lazy_tree_) {
    std::shared_ptr<LazyTree> lazy = std::move(lazy_tree_);
    SymbolTable& tree = lazy->Tree();
    names_.Share(tree.names_);
    alias_groups_.clear();
    alias_members_.clear();
    syms_ = std::move(tree.syms_);
    tree_ = std::move(tree.tree_);
    root_ = tree.root_;
    search_ = std::move(tree.search_);
    bounds_.clear();
    buckets_.clear();
  }
  if (!lazy_) return;
  std::shared_ptr<KallsymsIndex> lazy = std::move(lazy_);
  syms_ = lazy->All();
  tree_.clear();
  root_ = -1;
  BuildSearch();
}

bool SymbolTable::Range(uint64_t* start, uint64_t* end) const {
  if (lazy_) {
    const BigVector<KallsymsLine>& lines = lazy_->lines;
    if (lines.empty()) return false;
    // The first symbol starts at the first line; the last one (of those at
    // the last start) ends a page past it.
    *start = lines.front().start;
    *end = lazy_->Kept(lines.size() - 1).end;
    return true;
  }
  if (syms_.empty()) return false;
  *start = syms_.front().start;
  *end = syms_.back().end;
  return true;
}

bool LoadKallsyms(const std::string& path, SymbolTable* core,
                  std::vector<KallsymsModule>* modules, std::string* err,
                  bool in_place) {
  // The whole file at once, its lines scanned in place: the names stay
  // where they were read (some 100,000 of them; a string each cost more
  // than the kernel's own formatting of the file).
  SymbolTable all;
  std::string_view text;
  if (!ReadWhole(path, in_place, all.names(), &text)) {
    *err = path + ": cannot open kallsyms";
    return false;
  }
  auto lazy = std::make_shared<SymbolTable::KallsymsIndex>();
  auto by_start = [](const KallsymsLine& a, const KallsymsLine& b) {
    return a.start < b.start;
  };
  bool marked = false;
  bool indexed = IndexKallsyms(text, &lazy->lines, &marked);
  if (indexed && !marked &&
      std::is_sorted(lazy->lines.begin(), lazy->lines.end(), by_start)) {
    lazy->text = text;
    for (size_t i = 0; i < lazy->lines.size();
         i += SymbolTable::KallsymsIndex::kStride) {
      lazy->top.push_back(lazy->lines[i].start);
    }
    *core = SymbolTable();
    core->ShareNames(all);
    core->lazy_ = std::move(lazy);
    return true;
  }
  // perf fixes the ends over all symbols together (module ones included),
  // then splits the modules off.
  BigVector<Symbol>& syms = *all.mutable_symbols();
  if (indexed) {
    syms.reserve(lazy->lines.size());
    for (const KallsymsLine& l : lazy->lines) {
      syms.push_back(Symbol{l.start, l.start,
                            text.substr(l.name_at, l.name_size), l.binding,
                            false});
    }
  } else {
    ScanKallsyms(text, [&](uint64_t addr, std::string_view name,
                           SymbolBinding b, bool) {
      syms.push_back(Symbol{addr, addr, name, b, false});
      return true;
    });
  }
  lazy.reset();
  all.CleanUp(true);
  // The kernel's symbols stay where they are; the modules' move out.
  size_t kept = 0;
  for (size_t i = 0; i < syms.size(); ++i) {
    Symbol& s = syms[i];
    size_t tab = s.name.find('\t');
    if (tab == std::string_view::npos) {
      if (kept != i) syms[kept] = s;
      ++kept;
      continue;
    }
    std::string_view mod = s.name.substr(tab + 1);
    s.name = s.name.substr(0, tab);
    if (mod.size() >= 2 && mod.front() == '[' && mod.back() == ']') {
      mod = mod.substr(1, mod.size() - 2);
    }
    auto it = std::find_if(modules->begin(), modules->end(),
                           [&](const KallsymsModule& m) { return m.name == mod; });
    if (it == modules->end()) {
      modules->push_back(KallsymsModule{std::string(mod), {}});
      it = modules->end() - 1;
      it->table.ShareNames(all);
    }
    it->table.mutable_symbols()->push_back(s);
  }
  syms.resize(kept);
  core->lazy_.reset();
  core->ShareNames(all);
  *core->mutable_symbols() = std::move(syms);
  core->Finish(true, false);
  for (KallsymsModule& m : *modules) m.table.Finish(true, false);
  return true;
}

bool LoadPerfMap(const std::string& path, SymbolTable* table,
                 std::string* err) {
  std::string why;
  const int fd = OpenFileFd(path, &why);
  if (fd < 0) {
    *err = path + ": cannot open JIT map";
    return false;
  }
  FdSource source(fd, true);
  LineReader reader(&source);
  // perf's hex2u64 here is strtoull(s, &end, 16): leading white space, a
  // sign and a "0x" are taken too, as the JDK writes its maps
  // (-XX:+DumpPerfMapAtExit: "0x00007f9210ec7640 0x0000000000000150 ...").
  auto hex = [](const char* s, uint64_t* v) -> size_t {
    char* end = nullptr;
    *v = std::strtoull(s, &end, 16);
    return static_cast<size_t>(end - s);
  };
  std::string line;
  std::string_view read;
  // "7f3a2c001000 40 LambdaForm$MH::invoke": start and size in hex, then
  // the name, which may hold spaces. perf drops each line's last byte, its
  // '\n' (a last line without one loses a byte of its name), and reads
  // the line as a C string (a NUL ends it). A line too long for the reader
  // is passed over.
  for (LineReader::Result r; (r = reader.Next(&read)) != LineReader::kEof &&
                             r != LineReader::kError;) {
    if (r == LineReader::kTooLong) continue;
    line.assign(read);
    if (reader.last_line_unterminated() && !line.empty()) line.pop_back();
    uint64_t start = 0, size = 0;
    size_t len = hex(line.c_str(), &start) + 1;
    if (len + 2 >= line.size()) continue;
    len += hex(line.c_str() + len, &size) + 1;
    if (len + 2 >= line.size()) continue;
    table->Add(start, size, std::string_view(line.c_str() + len),
               SymbolBinding::kGlobal);
  }
  table->Finish(false, false);
  return true;
}

}  // namespace flamefold
