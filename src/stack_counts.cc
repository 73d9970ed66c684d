#include "flamefold/stack_counts.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "flamefold/hash.h"

namespace flamefold {

StackCounts::StackCounts() : slots_(1024, Slot{0, 0}), mask_(1023) {}

void StackCounts::Add(std::span<const SymbolId> frames,
                      const PerlNumber& weight, uint64_t samples) {
  uint64_t h = HashBytes(std::string_view(
      reinterpret_cast<const char*>(frames.data()), frames.size_bytes()));
  total_samples_ += samples;
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
  const Slot& s = slots_[hash & mask_];
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

void StackCounts::ForEach(
    const std::function<void(std::span<const SymbolId>, const PerlNumber&,
                             uint64_t)>& visit) {
  Flush();
  for (const Entry& e : entries_) {
    visit(std::span<const SymbolId>(ids_.data() + e.offset, e.length),
          e.weight, e.samples);
  }
}

void StackCounts::Insert(std::span<const SymbolId> frames, uint64_t h,
                         const PerlNumber& weight, uint64_t samples) {
  uint32_t tag = static_cast<uint32_t>(h >> 32);
  size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.entry == 0) break;
    if (s.tag != tag) continue;
    Entry& e = entries_[s.entry - 1];
    if (e.hash == h && e.length == frames.size() &&
        (frames.empty() ||
         std::memcmp(&ids_[e.offset], frames.data(), frames.size_bytes()) == 0)) {
      e.weight.Add(weight);
      e.samples += samples;
      return;
    }
  }
  Entry e;
  e.hash = h;
  e.offset = ids_.size();
  e.samples = samples;
  e.weight = weight;
  e.length = static_cast<uint32_t>(frames.size());
  ids_.insert(ids_.end(), frames.begin(), frames.end());
  entries_.push_back(e);
  slots_[i] = Slot{static_cast<uint32_t>(entries_.size()), tag};
  if (entries_.size() * 2 > slots_.size()) Grow();
}

void StackCounts::Grow() {
  BigVector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{0, 0});
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.entry == 0) continue;
    size_t i = entries_[s.entry - 1].hash & mask_;
    while (slots_[i].entry != 0) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

// The stacks are taken in the lexicographic order of their ids: stacks that
// share a prefix are then neighbours, so each stack only walks the nodes
// past what it shares with the one before (the nodes of that shared part are
// on `path`). Into an empty trie, every node past the shared part is new (a
// stack that shared more with an earlier one would share it with the one
// just before as well), so it is appended without a look-up.
void StackCounts::MoveInto(StackTrie* trie) {
  Flush();
  std::vector<uint32_t> order(entries_.size());
  std::iota(order.begin(), order.end(), 0u);
  const SymbolId* ids = ids_.data();
  // Stacks share long prefixes (the root frames): skip the equal part two
  // ids at a time before comparing the first ids that differ.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Entry& x = entries_[a];
    const Entry& y = entries_[b];
    const SymbolId* p = ids + x.offset;
    const SymbolId* q = ids + y.offset;
    size_t n = std::min(x.length, y.length), i = 0;
    for (; i + 2 <= n; i += 2) {
      uint64_t u, v;
      std::memcpy(&u, p + i, 8);
      std::memcpy(&v, q + i, 8);
      if (u != v) break;
    }
    for (; i < n; ++i) {
      if (p[i] != q[i]) return p[i] < q[i];
    }
    return x.length < y.length;
  });
  const bool fresh = trie->node_count() == 1;
  auto shared_with_previous = [&](size_t i) -> size_t {
    if (i == 0) return 0;
    const Entry& a = entries_[order[i - 1]];
    const Entry& b = entries_[order[i]];
    size_t n = 0, limit = std::min(a.length, b.length);
    while (n < limit && ids[a.offset + n] == ids[b.offset + n]) ++n;
    return n;
  };
  if (fresh) {  // the exact number of nodes: one allocation, no copying
    size_t nodes = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      nodes += entries_[order[i]].length - shared_with_previous(i);
    }
    trie->Reserve(nodes);
  }
  std::vector<NodeId> path{StackTrie::kRoot};
  for (size_t i = 0; i < order.size(); ++i) {
    const Entry& e = entries_[order[i]];
    const SymbolId* frames = ids + e.offset;
    size_t shared = shared_with_previous(i);
    path.resize(shared + 1);
    for (size_t k = shared; k < e.length; ++k) {
      path.push_back(fresh ? trie->AppendChild(path.back(), frames[k])
                           : trie->ChildOf(path.back(), frames[k]));
    }
    trie->AddCounts(path.back(), e.weight, e.samples);
  }
  ids_ = {};
  entries_ = {};
  slots_.assign(1024, Slot{0, 0});
  mask_ = 1023;
  total_samples_ = 0;
}

}  // namespace flamefold
