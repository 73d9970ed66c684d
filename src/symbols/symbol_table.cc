#include "symbols/symbol_table.h"

#include <algorithm>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "symbols/kallsyms.h"
#include "symbols/overlap_tree.h"

namespace flamefold {
namespace {

// The positions of `syms` ordered by start, equal starts in the order given:
// a least-significant-digit radix sort of (start, position) pairs, 11 bits a
// pass, passing over the digits that all starts share (most of the high
// ones), rather than a comparison sort that moves the 40-byte symbols
// themselves.
struct StartKey {
  uint64_t start;
  uint32_t at;  // the symbol's position
};
// Returns the keys in order, which `buf` holds (with room for the sort's
// second copy, in one block faulted in at once and not zeroed: for a big
// binary, two fresh vectors would take more page faults than the sort takes
// time).
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

std::string SymbolTable::Display(const Symbol& s) const {
  if (s.alias_group == 0) return ShownName(s);
  return aliases_.Chosen(s);
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
  BuildSearch();
}

void SymbolTable::CleanUp(bool kallsyms) {
  Eager();
  ResolveAliases();
  SortByStart();
  if (syms_.empty()) return;
  // Symbols without a size end where the next one starts. Whether a kallsyms
  // name is a module's is asked once per symbol, so that each name is scanned
  // once.
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
  if (tree_.empty()) {
    bounds_.reserve(syms_.size());
    BigPrefaultCapacity(&bounds_);
    for (const Symbol& s : syms_) bounds_.push_back({s.start, s.end});
    BuildBuckets();
    return;
  }
  std::vector<int32_t> order{tree_.root()};  // tree nodes, breadth first
  order.reserve(tree_.size());
  search_.reserve(tree_.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const PerfTree::Node& n = tree_.node(order[i]);
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
  if (lazy_) return lazy_->Find(addr);
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

bool SymbolTable::FindInLazyTree(uint64_t addr, const Symbol** found) const {
  if (!lazy_tree_->Covers(addr)) return false;
  *found = lazy_tree_->Tree().Find(addr);
  return true;
}

namespace {

// Symbols without a size end where the next one starts (perf's tree order
// is the sorted order); the last one a page past its start, rounded up.
void FixSizelessEnds(BigVector<Symbol>* seq) {
  BigVector<Symbol>& s = *seq;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i].end == s[i].start) s[i].end = s[i + 1].start;
  }
  if (!s.empty() && s.back().end == s.back().start) {
    s.back().end = RoundUpPage(s.back().start) + 4096;
  }
}

// Late symbols go after those of equal start, as the tree puts them: merged
// in from the back, in place, after the first `kept` symbols of `seq` (the
// rest of it is dropped).
void MergeLate(std::span<const Symbol> late, size_t kept,
               BigVector<Symbol>* seq) {
  auto by_start = [](const Symbol& a, const Symbol& b) {
    return a.start < b.start;
  };
  std::vector<Symbol> extra(late.begin(), late.end());
  std::stable_sort(extra.begin(), extra.end(), by_start);
  BigVector<Symbol>& s = *seq;
  s.resize(kept + extra.size());
  for (size_t k = s.size(), i = kept, j = extra.size(); j > 0;) {
    if (i > 0 && s[i - 1].start > extra[j - 1].start) {
      s[--k] = s[--i];
    } else {
      s[--k] = extra[--j];
    }
  }
}

// Whether a symbol of sorted `seq` ends before it starts or past the next
// one's start: only then does perf's tree's shape decide what is found.
bool HasOverlap(const BigVector<Symbol>& seq) {
  bool overlap = false;
  for (size_t i = 0; !overlap && i < seq.size(); ++i) {
    overlap = seq[i].end < seq[i].start ||
              (i + 1 < seq.size() && seq[i].end > seq[i + 1].start);
  }
  return overlap;
}

}  // namespace

// Of each run of symbols of sorted `seq` at one start, the one perf keeps
// stays, at the front of `seq`; returns how many stay. A choice that comes
// down to names waits (AliasGroups::Defer).
size_t SymbolTable::KeepOnePerStart(BigVector<Symbol>* seq) {
  BigVector<Symbol>& s = *seq;
  size_t out = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (out > 0 && s[out - 1].start == s[i].start) {
      Symbol& kept = s[out - 1];
      const Symbol& next = s[i];
      AliasChoice c = ChooseByAttributes(kept, next);
      if (c == AliasChoice::kSecond) {
        kept = next;
      } else if (c == AliasChoice::kByName &&
                 !(kept.alias_group == 0 && kept.mangled == next.mangled &&
                   kept.name == next.name)) {
        aliases_.Defer(&kept, next, &names_);
      }
      continue;
    }
    s[out++] = s[i];
  }
  return out;
}

// The steps of perf's tree (PerfTree::Build) depend on the tree's order
// alone, which is the symbols stably sorted by start, so they run here on a
// sorted copy. When the result holds overlapping symbols (only there does
// the tree's shape decide what a search finds), the table keeps its
// symbols as added for the tree, built at the first look-up that needs it
// (OverlapTree), unless `tree_now` (then it returns false, changing
// nothing).
bool SymbolTable::FinishSorted(std::span<const Symbol> late, bool tree_now) {
  ResolveAliases();  // an earlier finish's groups: none is left after it
  // Room for the late symbols (a binary's PLT entries) merged in below:
  // growing the vector then would move a big binary's whole table into fresh
  // pages.
  BigVector<Symbol> seq = SortedByStart(syms_, late.size());
  if (seq.empty()) {
    seq.reserve(syms_.size() + late.size());
    seq.assign(syms_.begin(), syms_.end());
  }
  FixSizelessEnds(&seq);
  MergeLate(late, KeepOnePerStart(&seq), &seq);
  bool overlap = HasOverlap(seq);
  if (overlap && tree_now) {
    aliases_.clear();
    return false;
  }
  if (overlap) {
    lazy_tree_ =
        std::make_shared<OverlapTree>(std::move(syms_), late, seq, *this);
  }
  syms_ = std::move(seq);
  tree_.clear();
  BuildSearch();
  return true;
}

void SymbolTable::FinishAsPerfTree(std::span<const Symbol> late,
                                   bool allow_sorted) {
  Eager();
  if (FinishSorted(late, !allow_sorted)) return;
  tree_.Build(&syms_, late, &names_);
  BuildSearch();
}

const BigVector<Symbol>& SymbolTable::symbols() const {
  return lazy_ ? lazy_->All() : syms_;
}

// A lazy table becomes an ordinary one, finished, before it changes: a
// kallsyms index makes all its symbols; a table waiting for its tree
// becomes the tree, as FinishAsPerfTree would have left it.
void SymbolTable::Eager() {
  if (lazy_tree_) {
    std::shared_ptr<OverlapTree> lazy = std::move(lazy_tree_);
    SymbolTable& tree = lazy->Tree();
    names_.Share(tree.names_);
    aliases_.clear();
    syms_ = std::move(tree.syms_);
    tree_ = std::move(tree.tree_);
    search_ = std::move(tree.search_);
    bounds_.clear();
    buckets_.clear();
  }
  if (!lazy_) return;
  std::shared_ptr<KallsymsIndex> lazy = std::move(lazy_);
  syms_ = lazy->All();
  tree_.clear();
  BuildSearch();
}

bool SymbolTable::Range(uint64_t* start, uint64_t* end) const {
  if (lazy_) return lazy_->Range(start, end);
  if (syms_.empty()) return false;
  *start = syms_.front().start;
  *end = syms_.back().end;
  return true;
}

}  // namespace flamefold
