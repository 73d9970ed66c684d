#include "collapse/stack_counts.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "base/hash.h"

namespace flamefold {

void StackCounts::Add(std::span<const SymbolId> frames,
                      const PerlNumber& weight, uint64_t samples) {
  uint64_t h = HashBytes(std::string_view(
      reinterpret_cast<const char*>(frames.data()), frames.size_bytes()));
  total_samples_ += samples;
  // While the table is small enough to stay in the cache there is nothing to
  // prefetch: the sample goes in at once, without a queue's copies, which a
  // perf.data replay (whose distinct stacks are few) would otherwise pay at
  // every sample. Once it is large, it stays so: the queue keeps the order.
  if (queued_ == 0 && entries_.size() < kCachedEntries) {
    Insert(frames, h, weight, samples);
    return;
  }
  if (queued_ == kDepth) InsertOldest();
  // The queued samples, newest first, are 1, 2, ... Adds old: take each one
  // level further into the table.
  for (size_t age = 1; age <= queued_; ++age) {
    Prefetch(age, queue_[(queue_head_ + queued_ - age) % kDepth].hash);
  }
  Prefetch(0, h);
  Queued& q = queue_[(queue_head_ + queued_) % kDepth];
  q.frames.assign(frames.begin(), frames.end());
  q.hash = h;
  q.weight = weight;
  q.samples = samples;
  ++queued_;
}

// Stage 0 asks for the first slot of `hash`'s probe; stage 1 reads it (it
// has arrived) and asks for its entry; stage 2 asks for the entry's ids.
void StackCounts::Prefetch(size_t stage, uint64_t hash) const {
  const Slot& s = slots_.Home(hash);
  if (stage == 0) {
    __builtin_prefetch(&s);
    return;
  }
  if (s.entry == 0) return;
  const Entry& e = entries_[s.entry - 1];
  if (stage == 1) {
    __builtin_prefetch(&e);
  } else if (e.length > 0) {
    __builtin_prefetch(&ids_[e.offset]);
  }
}

void StackCounts::Flush() {
  while (queued_ > 0) InsertOldest();
}

void StackCounts::InsertOldest() {
  Queued& oldest = queue_[queue_head_];
  Insert(oldest.frames, oldest.hash, oldest.weight, oldest.samples);
  queue_head_ = (queue_head_ + 1) % kDepth;
  --queued_;
}

void StackCounts::Insert(std::span<const SymbolId> frames, uint64_t h,
                         const PerlNumber& weight, uint64_t samples) {
  const uint32_t tag = static_cast<uint32_t>(h >> 32);
  Slot* slot = slots_.FindOrFree(h, [&](const Slot& s) {
    if (s.tag != tag) return false;
    const Entry& e = entries_[s.entry - 1];
    return e.hash == h && e.length == frames.size() &&
           (frames.empty() ||
            std::memcmp(&ids_[e.offset], frames.data(), frames.size_bytes()) == 0);
  });
  if (!slot->empty()) {
    Entry& e = entries_[slot->entry - 1];
    e.weight.Add(weight);
    e.samples += samples;
    return;
  }
  Entry e;
  e.hash = h;
  e.offset = ids_.size();
  e.samples = samples;
  e.weight = weight;
  e.length = static_cast<uint32_t>(frames.size());
  ids_.append(frames.data(), frames.size());
  entries_.push_back(e);
  *slot = Slot{static_cast<uint32_t>(entries_.size()), tag};
  slots_.Added([this](const Slot& s) { return entries_[s.entry - 1].hash; });
}

namespace {

using SortItem = StackCounts::SortItem;

// Stacks sort in the byte order of their folded lines: frame by frame, a
// frame by the rank of "name" where the stack ends and of "name;" where it
// goes on (StackTrie::KeyRanks). The key at `depth` is that rank + 1, or 0
// past the end (only the empty stack has none at depth 0). Equal keys mean
// the same frame, and both stacks end there or both go on. A KeyOrder<true>
// reads the stacks' ids through a map, as those of another interner
// (--jobs N); the sort itself uses KeyOrder<false>, without the look-up.
template <bool kMapped>
class KeyOrder {
 public:
  explicit KeyOrder(const std::vector<uint32_t>* rank,
                    const SymbolId* map = nullptr)
      : rank_(rank->data()), map_(map) {}
  /// Frame `depth` of `s` (< s.length) in the ranked interner's ids.
  SymbolId Id(const SortItem& s, size_t depth) const {
    if constexpr (kMapped) return map_[s.ids[depth]];
    return s.ids[depth];
  }
  uint32_t KeyAt(const SortItem& s, size_t depth) const {
    if (depth >= s.length) return 0;
    return rank_[2 * Id(s, depth) + (depth + 1 < s.length)] + 1;
  }

 private:
  const uint32_t* rank_;
  const SymbolId* map_;
};
using StackOrder = KeyOrder<false>;
using MappedOrder = KeyOrder<true>;

// Whether `a` (keys by `oa`) sorts before `b` (keys by `ob`); their first
// `depth` keys are equal.
template <typename Order>
bool LessFrom(const Order& oa, const SortItem& a, const Order& ob,
              const SortItem& b, size_t depth) {
  for (size_t i = depth;; ++i) {
    uint32_t ka = oa.KeyAt(a, i), kb = ob.KeyAt(b, i);
    if (ka != kb) return ka < kb;
    if (i + 1 >= a.length) return false;  // both end here: equal
  }
}

// The number of leading keys `a` and `b` share, knowing they share `from`.
template <typename Order>
uint32_t CommonKeys(const Order& oa, const SortItem& a, const Order& ob,
                    const SortItem& b, size_t from) {
  size_t d = from;
  const size_t limit = std::min(a.length, b.length);
  while (d < limit && oa.KeyAt(a, d) == ob.KeyAt(b, d)) ++d;
  return static_cast<uint32_t>(d);
}

// After sorting a[0, n), whose stacks share their first `depth` keys:
// lcp[i] = the number of leading keys a[i] shares with a[i - 1] (lcp[0] is
// set by the caller).
void SetLcp(const StackOrder& order, const SortItem* a, uint32_t* lcp,
            size_t n, size_t depth) {
  for (size_t i = 1; i < n; ++i) {
    lcp[i] = CommonKeys(order, a[i - 1], order, a[i], depth);
  }
}

// Multikey quicksort (Bentley and Sedgewick): partitions by the key at
// `depth` into less, equal and greater, and sorts the equal part from
// depth + 1. Stacks share long prefixes (the root frames); a comparison
// sort compares each shared prefix again at every comparison, this reads
// each id of the distinguishing prefixes about once per level of the
// partition. The stacks are distinct, so an equal part whose stacks end at
// `depth` is one stack. As in introsort, a part still to sort after `budget`
// more levels of recursion into the less and greater parts (pivots chosen
// badly, by chance or by a hostile input) goes to std::sort, so time stays
// O(n log n) and the call stack shallow.
//
// It also tells how many leading keys each stack shares with the one before
// (`lcp`, along `a`; see SetLcp): across the boundary of two parts, `depth`.
// `keys` (along `a`) holds each stack's key at `depth` when `have_keys`: read
// from the stacks in one pass and moved with the stacks, they spare the less
// and greater parts a second read of each stack's ids.
void MultikeySort(const StackOrder& order, SortItem* a, uint32_t* lcp,
                  uint32_t* keys, size_t n, size_t depth, int budget,
                  bool have_keys) {
  while (n > 1) {
    if (n <= 12 || budget == 0) {
      std::sort(a, a + n, [&order, depth](const SortItem& x, const SortItem& y) {
        return LessFrom(order, x, order, y, depth);
      });
      SetLcp(order, a, lcp, n, depth);
      return;
    }
    // The keys at `depth`, read in one pass (each a load from the stack's
    // ids, anywhere in the table, all at once rather than one per step of
    // the partition), are moved along with the stacks: the less and greater
    // parts are partitioned by them again.
    if (!have_keys) {
      for (size_t j = 0; j < n; ++j) keys[j] = order.KeyAt(a[j], depth);
    }
    const uint32_t pivot = keys[n / 2];
    // Dutch flag partition: [0, lt) less, [lt, i) equal, [gt, n) greater.
    size_t lt = 0, i = 0, gt = n;
    while (i < gt) {
      const uint32_t k = keys[i];
      if (k < pivot) {
        std::swap(a[lt], a[i]);
        std::swap(keys[lt++], keys[i++]);
      } else if (k > pivot) {
        --gt;
        std::swap(a[i], a[gt]);
        std::swap(keys[i], keys[gt]);
      } else {
        ++i;
      }
    }
    if (lt > 0) lcp[lt] = static_cast<uint32_t>(depth);
    if (gt < n) lcp[gt] = static_cast<uint32_t>(depth);
    MultikeySort(order, a, lcp, keys, lt, depth, budget - 1, true);
    MultikeySort(order, a + gt, lcp + gt, keys + gt, n - gt, depth,
                 budget - 1, true);
    if (a[lt].length <= depth + 1) return;  // the equal part ends: one stack
    a += lt;
    lcp += lt;
    keys += lt;
    n = gt - lt;
    ++depth;
    have_keys = false;
  }
}

}  // namespace

// The stacks are taken in the byte order of their folded lines: stacks that
// share leading keys are then neighbours, so each stack only walks the nodes
// past what it shares with the one before (the nodes of that shared part are
// on `path`). Into an empty trie, every node past the shared part is new (a
// stack that shared more with an earlier one would share it with the one
// just before as well), but for a node that ended an earlier stack (see
// `ended`), so it is appended without a look-up; and the nodes are then
// created in the order the trie's Walk visits them, which lets it go through
// them in id order instead of sorting each node's children.
void StackCounts::MoveInto(StackTrie* trie) {
  const std::vector<uint32_t> rank = StackTrie::KeyRanks(trie->names());
  SortForMove(rank);
  StackCounts* self = this;
  MoveSortedInto(std::span<StackCounts* const>(&self, 1), {}, rank, trie);
}

void StackCounts::SortForMove(const std::vector<uint32_t>& rank) {
  Flush();
  const SymbolId* ids = ids_.data();
  sorted_.resize(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) {
    sorted_[i] = {ids + entries_[i].offset, entries_[i].length,
                  static_cast<uint32_t>(i)};
  }
  // How many leading keys each stack shares with the one before (the
  // frames they share and both go on from), for the node count and the
  // build.
  shared_.assign(sorted_.size(), 0);
  BigArray<uint32_t> keys;  // written before read: not zeroed
  keys.resize_for_overwrite(sorted_.size());
  MultikeySort(StackOrder(&rank), sorted_.data(), shared_.data(), keys.data(),
               sorted_.size(), 0, 2 * std::bit_width(sorted_.size()) + 16,
               /*have_keys=*/false);
}

void StackCounts::Reset() {
  ids_ = {};
  entries_ = {};
  sorted_ = {};
  shared_ = {};
  slots_.Reset(512);
  total_samples_ = 0;
}

// The sorted tables' stacks in their merged order: each step yields the
// least head (the first table's on a tie) and how many leading keys it
// shares with the stack yielded before.
//
// Each head's shared keys with the last stack yielded (`lcp`) are kept, so
// heads are compared without reading their shared prefixes again (as in
// LCP merge): the head that shares more with the last stack is the lesser
// (both follow it; the other one differs from it first, upwards); only
// heads that share as much are compared, from there on.
class StackCounts::MergedStacks {
 public:
  struct Run {
    std::span<const SortItem> sorted;
    const uint32_t* shared;
    MappedOrder order;  // the trie's ranks, through the run's id map
    size_t next = 0;
    uint32_t lcp = 0;  // keys the head shares with the last stack yielded
  };
  /// The sorted `tables`, table k's ids read through `maps[k]` (none or
  /// empty: the ranked ids themselves).
  MergedStacks(std::span<StackCounts* const> tables,
               std::span<const std::vector<SymbolId>> maps,
               const std::vector<uint32_t>& rank);

  /// Frame `depth` of `s`, a stack of run `r`, as a trie id.
  SymbolId Id(size_t r, const SortItem& s, size_t depth) const {
    return runs_[r].order.Id(s, depth);
  }

  /// The next stack (false when none is left): its run and its shared keys.
  bool Next(size_t* run, const SortItem** item, uint32_t* shared) {
    size_t best = SIZE_MAX;
    for (size_t r = 0; r < runs_.size(); ++r) {
      const Run& c = runs_[r];
      if (c.next == c.sorted.size()) continue;
      if (best == SIZE_MAX) {
        best = r;
        continue;
      }
      const Run& b = runs_[best];
      if (c.lcp > b.lcp ||
          (c.lcp == b.lcp && LessFrom(c.order, c.sorted[c.next], b.order,
                                      b.sorted[b.next], c.lcp))) {
        best = r;
      }
    }
    if (best == SIZE_MAX) return false;
    Run& r = runs_[best];
    const SortItem& x = r.sorted[r.next];
    const uint32_t lcp = r.lcp;
    // The other heads against x: one that shared less with the last stack
    // shares that much with x; one that shared as much may share more.
    for (size_t o = 0; o < runs_.size(); ++o) {
      Run& c = runs_[o];
      if (o == best || c.next == c.sorted.size() || c.lcp < lcp) continue;
      c.lcp = CommonKeys(r.order, x, c.order, c.sorted[c.next], lcp);
    }
    ++r.next;
    if (r.next < r.sorted.size()) r.lcp = r.shared[r.next];
    *run = best;
    *item = &x;
    *shared = lcp;
    return true;
  }

  /// The stack `ahead` places after the next one of run `r`, if any, and
  /// the keys it shares with the one before it in its run.
  const SortItem* Ahead(size_t r, size_t ahead, uint32_t* shared) const {
    const Run& run = runs_[r];
    if (run.next + ahead >= run.sorted.size()) return nullptr;
    *shared = run.shared[run.next + ahead];
    return &run.sorted[run.next + ahead];
  }
  /// Before each step: asks for the ids and entry of the stack 8 places
  /// ahead in each run, which the sweep reads at random.
  void PrefetchAhead() const {
    for (size_t r = 0; r < runs_.size(); ++r) {
      uint32_t from;
      if (const SortItem* next = Ahead(r, 8, &from)) {
        __builtin_prefetch(next->ids + from);
        // An entry (40 bytes) may straddle two cache lines: its weight,
        // read first, is at its end.
        const Entry* e = &tables_[r]->entries_[next->entry];
        __builtin_prefetch(e);
        __builtin_prefetch(reinterpret_cast<const char*>(e + 1) - 1);
        // GCC 12 counts prefetches as no side effect: a function of
        // prefetches only is found pure, and its calls, which return nothing,
        // are dropped. This empty volatile asm (a side effect) keeps them.
        asm volatile("");
      }
    }
  }
  /// The entry of `s`, a stack of run `r`.
  const Entry& EntryOf(size_t r, const SortItem& s) const {
    return tables_[r]->entries_[s.entry];
  }

 private:
  std::span<StackCounts* const> tables_;
  std::vector<SymbolId> same_;  // the identity, for tables without a map
  std::vector<Run> runs_;
};

StackCounts::MergedStacks::MergedStacks(
    std::span<StackCounts* const> tables,
    std::span<const std::vector<SymbolId>> maps,
    const std::vector<uint32_t>& rank)
    : tables_(tables), same_(rank.size() / 2) {
  std::iota(same_.begin(), same_.end(), SymbolId{0});
  for (size_t k = 0; k < tables.size(); ++k) {
    const StackCounts* t = tables[k];
    const SymbolId* map =
        k < maps.size() && !maps[k].empty() ? maps[k].data() : same_.data();
    runs_.push_back({std::span<const SortItem>(t->sorted_.data(), t->sorted_.size()),
                     t->shared_.data(), MappedOrder(&rank, map)});
  }
}

// The stacks are taken in the byte order of their folded lines: stacks that
// share leading keys are then neighbours, so each stack only walks the nodes
// past what it shares with the one before (the nodes of that shared part are
// on `path`). Into an empty trie, every node past the shared part is new (a
// stack that shared more with an earlier one would share it with the one
// just before as well; the same stack from another table shares all its
// keys), but for a node that ended an earlier stack (see `ended`), so it is
// appended without a look-up; and the nodes are then created in the order
// the trie's Walk visits them, which lets it go through them in id order
// instead of sorting each node's children.
void StackCounts::MoveSortedInto(
    std::span<StackCounts* const> tables,
    std::span<const std::vector<SymbolId>> maps,
    const std::vector<uint32_t>& rank, StackTrie* trie) {
  MergedStacks merged(tables, maps, rank);
  size_t nodes = 0, stacks = 0;
  for (const StackCounts* t : tables) {
    for (size_t i = 0; i < t->sorted_.size(); ++i) {
      nodes += t->sorted_[i].length - t->shared_[i];
    }
    stacks += t->sorted_.size();
  }
  const bool fresh = trie->node_count() == 1;
  // Into an empty trie: at most `nodes` nodes (fewer when a node both ends a
  // stack and has children, and lines sort between: see `ended`; or when
  // tables share stacks), one allocation.
  if (fresh) trie->Reserve(nodes, stacks);
  std::vector<NodeId> path{StackTrie::kRoot};
  // A stack that ends at a node N comes before the stacks that go on
  // through N, but not always just before: the lines of a sibling whose
  // name extends N's with a byte below ';' sort between ("f" < "f.cold" <
  // "f.cold;g" < "f;g"). So the nodes that ended a stack wait here, by
  // level, until the sweep is past the key "name;" of theirs; at each
  // level they nest (each extends the name below it), like a stack of
  // intervals [key "name", key "name;"].
  struct Ended {
    uint32_t level;  // the frame's index in its stack
    SymbolId frame;
    NodeId node;
  };
  std::vector<Ended> ended;
  size_t run;
  const SortItem* item;
  uint32_t level;
  while (merged.Next(&run, &item, &level)) {
    merged.PrefetchAhead();
    const SortItem& s = *item;
    path.resize(level + 1);
    NodeId found = StackTrie::kRoot;
    if (fresh && level < s.length) {
      while (!ended.empty() && ended.back().level > level) ended.pop_back();
      const SymbolId f = merged.Id(run, s, level);
      const uint32_t key = rank[2 * f + (level + 1 < s.length)];
      while (!ended.empty() && ended.back().level == level &&
             rank[2 * ended.back().frame + 1] < key) {
        ended.pop_back();
      }
      if (!ended.empty() && ended.back().level == level &&
          ended.back().frame == f && level + 1 < s.length) {
        found = ended.back().node;
        ended.pop_back();
      }
    }
    for (size_t k = level; k < s.length; ++k) {
      NodeId n;
      if (!fresh) {
        n = trie->ChildOf(path.back(), merged.Id(run, s, k));
      } else if (k == level && found != StackTrie::kRoot) {
        n = found;
      } else {
        n = trie->AppendChild(path.back(), merged.Id(run, s, k));
      }
      path.push_back(n);
    }
    if (fresh && s.length > 0 && level < s.length) {
      ended.push_back({s.length - 1, merged.Id(run, s, s.length - 1),
                       path.back()});
    }
    const Entry& e = tables[run]->entries_[s.entry];
    trie->AddCounts(path.back(), e.weight, e.samples);
  }
  if (fresh) trie->MarkIdsInWalkOrder();
  for (StackCounts* t : tables) t->Reset();
}

// The same sweep as MoveSortedInto's, writing lines instead of nodes: a
// stack's first `level` frames are the previous stack's, so its line is the
// previous one cut after them (ends[level]) and extended by the rest.
void StackCounts::VisitSorted(std::span<StackCounts* const> tables,
                              std::span<const std::vector<SymbolId>> maps,
                              const std::vector<uint32_t>& rank,
                              const StringInterner& names,
                              const LineVisitor& visit) {
  MergedStacks merged(tables, maps, rank);
  std::string line(4096, '\0');
  std::vector<size_t> ends{0};  // ends[k]: the line's length through k frames
  PerlNumber weight;
  uint64_t samples = 0;
  bool pending = false;  // a line waits: the next stack may be the same
  size_t run;
  const SortItem* item;
  uint32_t level;
  while (merged.Next(&run, &item, &level)) {
    // The names are not asked for ahead: walking a stack's ids a few places
    // ahead to prefetch them costs more than the misses it could hide, even
    // with many distinct names.
    merged.PrefetchAhead();
    const SortItem& s = *item;
    const Entry& e = merged.EntryOf(run, s);
    if (s.length == 0) continue;  // the empty stack: no line
    if (pending && level == s.length) {  // the same stack, another table
      weight.Add(e.weight);
      samples += e.samples;
      continue;
    }
    if (pending) visit(std::string_view(line.data(), ends.back()), weight, samples);
    ends.resize(level + 1);
    for (size_t k = level; k < s.length; ++k) {
      const std::string_view name = names.Get(merged.Id(run, s, k));
      size_t at = ends.back();
      if (at + 1 + name.size() > line.size()) {
        line.resize(std::max(at + 1 + name.size(), 2 * line.size()));
      }
      if (k > 0) line[at++] = ';';
      if (!name.empty()) std::memcpy(line.data() + at, name.data(), name.size());
      ends.push_back(at + name.size());
    }
    weight = PerlNumber();
    weight.Add(e.weight);  // as a trie node's counts add up, from zero
    samples = e.samples;
    pending = true;
  }
  if (pending) visit(std::string_view(line.data(), ends.back()), weight, samples);
  for (StackCounts* t : tables) t->Reset();
}

}  // namespace flamefold
