// SortDistinctStrings: distinct strings in byte order, 8 bytes at a time.
// The one string sort of the project: the frame names behind every folded
// output (StackTrie::KeyRanks) and flamediff's stacks.
#ifndef FLAMEFOLD_BASE_STRING_SORT_H_
#define FLAMEFOLD_BASE_STRING_SORT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/string_interner.h"

namespace flamefold {

/// A string to sort (`text`) and the caller's number for it (`id`).
struct SortableString {
  std::string_view text;
  // SortDistinctStrings' state: the text's bytes [depth, depth + 8) as a
  // big-endian number, zero past its end, and how many of them it has
  // (0 to 8), so that ordering by (chunk, left) is byte order from `depth`
  // on, a string before those it begins, even where strings hold zero
  // bytes; `next` and `next_left` are the 8 bytes after, read with them.
  uint64_t chunk = 0, next = 0;
  uint32_t id = 0;
  uint16_t left = 0, next_left = 0;
};
// The sort moves entries whole: kept at 40 bytes (no padding), the size
// they had when the sort served the frame names alone.
static_assert(sizeof(SortableString) == 40);

/// Sorts a[0, n), whose texts are all different, in byte order
/// (std::string_view's operator<).
void SortDistinctStrings(SortableString* a, size_t n);

/// The strings of `strings` in byte order, each with its id.
std::vector<SortableString> SortedStrings(const StringInterner& strings);

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_STRING_SORT_H_
