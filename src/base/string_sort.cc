#include "base/string_sort.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace flamefold {
namespace {

// The 8 bytes of `text` from `depth` on, as SortableString::chunk; their
// count.
uint64_t ChunkAt(std::string_view text, size_t depth, uint16_t* left) {
  const size_t n =
      text.size() > depth ? std::min<size_t>(text.size() - depth, 8) : 0;
  unsigned char bytes[8] = {};
  if (n > 0) std::memcpy(bytes, text.data() + depth, n);
  uint64_t chunk = 0;
  for (unsigned char b : bytes) chunk = chunk << 8 | b;
  *left = static_cast<uint16_t>(n);
  return chunk;
}

}  // namespace

// The entries are sorted by their chunks, then each run of strings equal in
// all 8 bytes the same way from 8 bytes further on. A string's text is read
// once for two levels (16 bytes), the entries' own numbers serving the
// second. A byte-by-byte multikey quicksort would read a string's text once
// per byte of depth and partition, a cache miss each where the strings
// outgrow the cache, as the distinct frame names of a big profile do. Runs
// wait on a list, not the call stack, so strings that share long beginnings
// cost no deep recursion.
void SortDistinctStrings(SortableString* a, size_t n) {
  struct Run {
    SortableString* begin;
    size_t n, depth;
    bool preloaded;  // the entries' next holds the bytes at depth
  };
  std::vector<Run> runs{{a, n, 0, false}};
  while (!runs.empty()) {
    const Run run = runs.back();
    runs.pop_back();
    SortableString* const b = run.begin;
    for (size_t i = 0; i < run.n; ++i) {
      SortableString& x = b[i];
      if (run.preloaded) {
        x.chunk = x.next;
        x.left = x.next_left;
      } else {
        x.chunk = ChunkAt(x.text, run.depth, &x.left);
        x.next = ChunkAt(x.text, run.depth + 8, &x.next_left);
      }
    }
    std::sort(b, b + run.n, [](const SortableString& x, const SortableString& y) {
      return x.chunk != y.chunk ? x.chunk < y.chunk : x.left < y.left;
    });
    for (size_t i = 0, j; i < run.n; i = j) {
      for (j = i + 1; j < run.n && b[j].chunk == b[i].chunk &&
                      b[j].left == b[i].left;
           ++j) {
      }
      // Fewer than 8 bytes left in both: the same string, which distinct
      // strings never are.
      if (j - i > 1 && b[i].left == 8) {
        runs.push_back({b + i, j - i, run.depth + 8, !run.preloaded});
      }
    }
  }
}

std::vector<SortableString> SortedStrings(const StringInterner& strings) {
  std::vector<SortableString> sorted(strings.size());
  for (SymbolId id = 0; id < strings.size(); ++id) {
    sorted[id].text = strings.Get(id);
    sorted[id].id = id;
  }
  SortDistinctStrings(sorted.data(), sorted.size());
  return sorted;
}

}  // namespace flamefold
