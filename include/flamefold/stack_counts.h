// StackCounts: the distinct stacks of a profile and their counts, kept as
// sequences of frame ids in a hash table while the input is read; the trie
// is built from them once, at the end (MoveInto).
//
// Why not insert each sample into the trie directly: a sample then costs one
// table probe per frame, scattered over a table as large as the trie, and a
// trie grown one sample at a time touches its memory in random order. Here a
// sample costs one hash of its ids and one probe; the trie is built from the
// sorted stacks, so stacks that share a prefix share its walk and new nodes
// are appended in order.
#ifndef FLAMEFOLD_STACK_COUNTS_H_
#define FLAMEFOLD_STACK_COUNTS_H_

#include <cstdint>
#include <span>

#include "flamefold/arena.h"
#include "flamefold/big_alloc.h"
#include "flamefold/perl_number.h"
#include "flamefold/stack_trie.h"

namespace flamefold {

class StackCounts : public SampleSink {
 public:
  StackCounts();

  void OnSample(std::span<const SymbolId> frames,
                const PerlNumber& weight) override {
    Add(frames, weight, 1);
  }
  /// Adds `weight` and `samples` to the stack `frames` (root first).
  void Add(std::span<const SymbolId> frames, const PerlNumber& weight,
           uint64_t samples);

  /// Adds every stack to `trie` (whose names are the ids used here) and
  /// empties this table, freeing its memory.
  void MoveInto(StackTrie* trie);

  size_t size() const { return entries_.size(); }
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
  };
  void Grow();

  BigVector<SymbolId> ids_;
  BigVector<Entry> entries_;
  BigVector<Slot> slots_;
  size_t mask_;
  uint64_t total_samples_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_STACK_COUNTS_H_
