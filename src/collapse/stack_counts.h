// StackCounts: the distinct stacks of a profile and their counts, kept as
// sequences of frame ids in a hash table while the input is read; the trie
// is built from them once, at the end (MoveInto), or, when only the folded
// lines are wanted, they are written in sorted order (VisitSorted).
//
// Why not insert each sample into the trie directly: a sample then costs one
// table probe per frame, scattered over a table as large as the trie, and a
// trie grown one sample at a time touches its memory in random order. Here a
// sample costs one hash of its ids and one probe; the trie is built from the
// sorted stacks, so stacks that share a prefix share its walk and new nodes
// are appended in order.
#ifndef FLAMEFOLD_COLLAPSE_STACK_COUNTS_H_
#define FLAMEFOLD_COLLAPSE_STACK_COUNTS_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "base/string_interner.h"
#include "base/big_alloc.h"
#include "base/hash_table.h"
#include "base/perl_number.h"
#include "collapse/stack_trie.h"

namespace flamefold {

class StackCounts : public SampleSink {
 public:
  StackCounts() = default;

  void OnSample(std::span<const SymbolId> frames,
                const PerlNumber& weight) override {
    Add(frames, weight, 1);
  }
  /// Adds `weight` and `samples` to the stack `frames` (root first).
  ///
  /// The table is far larger than the processor's caches, and a sample's
  /// look-up touches a slot, an entry and the entry's ids, each a cache miss
  /// on the critical path. So, once the table is larger than the caches
  /// (kCachedEntries), a sample waits in a short queue while the next
  /// ones are parsed: each Add prefetches the next level for the samples
  /// queued (slot, then entry, then ids), and the oldest is inserted once
  /// its lines are in the cache.
  void Add(std::span<const SymbolId> frames, const PerlNumber& weight,
           uint64_t samples);
  /// Inserts the queued samples.
  void Flush();

  /// Adds every stack to `trie` (whose names are the ids used here) and
  /// empties this table, freeing its memory.
  void MoveInto(StackTrie* trie);

  /// Tables filled on several threads, each with names of its own, become
  /// one trie in two steps. First each table sorts its stacks in the byte
  /// order of their folded lines; `rank` is StackTrie::KeyRanks of the
  /// table's own names (the order does not depend on the interner). This
  /// touches nothing but this table, so tables sort on threads of their
  /// own; afterwards only MoveSortedInto may use the table.
  void SortForMove(const std::vector<uint32_t>& rank);
  /// Then the sorted tables' stacks are added to `trie` in one sweep of
  /// their merged order (a stack found in several tables adds up), and the
  /// tables are emptied. `maps[k]` rewrites table k's frame ids into the
  /// trie's (none, or an empty one: the same ids); `rank` is KeyRanks of the
  /// trie's names. The trie must be empty for the fast build; else each
  /// stack is looked up.
  static void MoveSortedInto(std::span<StackCounts* const> tables,
                             std::span<const std::vector<SymbolId>> maps,
                             const std::vector<uint32_t>& rank,
                             StackTrie* trie);

  /// Receives a stack's folded line ("a;b;c"), its weight and its samples.
  using LineVisitor = std::function<void(std::string_view line,
                                         const PerlNumber& weight,
                                         uint64_t samples)>;
  /// Instead of MoveSortedInto, when only the folded lines are wanted (as
  /// flamefold writes them): calls `visit` for each distinct stack of the
  /// sorted tables, in the byte order of their lines (what a trie's Walk
  /// gives: a stack found in several tables adds up, in table order; the
  /// empty stack has no line), and empties the tables. Each line is built
  /// from the one before, past the frames they share, without a trie.
  /// `names` are the names that `rank` ranks.
  static void VisitSorted(std::span<StackCounts* const> tables,
                          std::span<const std::vector<SymbolId>> maps,
                          const std::vector<uint32_t>& rank,
                          const StringInterner& names,
                          const LineVisitor& visit);

  /// A stack in sorted order: its ids and its entry (for the sort).
  struct SortItem {
    const SymbolId* ids;
    uint32_t length;
    uint32_t entry;
  };

  /// The number of distinct stacks (after inserting what is queued).
  size_t size() {
    Flush();
    return entries_.size();
  }
  uint64_t total_samples() const { return total_samples_; }

 private:
  struct Entry {
    uint64_t hash;
    uint64_t offset;  // into ids_
    uint64_t samples;
    PerlNumber weight;
    uint32_t length;
  };
  // A slot holds an entry index + 1 (0: free) and the top bits of the hash,
  // so most probes that do not match never touch the entry.
  struct Slot {
    uint32_t entry;
    uint32_t tag;
    bool empty() const { return entry == 0; }
  };
  class MergedStacks;  // the sorted tables' stacks in their merged order
  void Insert(std::span<const SymbolId> frames, uint64_t hash,
              const PerlNumber& weight, uint64_t samples);
  void Prefetch(size_t stage, uint64_t hash) const;
  void InsertOldest();

  struct Queued {
    std::vector<SymbolId> frames;
    uint64_t hash = 0;
    PerlNumber weight;
    uint64_t samples = 0;
  };
  static constexpr size_t kDepth = 3;
  // Up to this many stacks (a table, entries and ids small enough to stay in
  // the CPU's caches), Add inserts at once instead of queueing.
  static constexpr size_t kCachedEntries = 16384;
  Queued queue_[kDepth];  // a ring: the oldest at queue_head_
  size_t queue_head_ = 0, queued_ = 0;

  void Reset();

  BigArray<SymbolId> ids_;
  BigArray<Entry> entries_;
  HashTable<Slot> slots_;
  BigVector<SortItem> sorted_;  // after SortForMove
  BigVector<uint32_t> shared_;  // keys each sorted_[i] shares with the one before
  uint64_t total_samples_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_COLLAPSE_STACK_COUNTS_H_
