// BigAllocator: an allocator for the large tables of the folding stages.
//
// Page faults dominate a naive run on large inputs (every fresh 4 KiB page
// of a growing table traps into the kernel; in a VM that trap is costly).
// Allocations of 2 MiB and more are mapped directly and marked
// MADV_HUGEPAGE, so the kernel backs them with 2 MiB pages where
// transparent huge pages are enabled ("madvise" or "always"): one fault per
// 2 MiB instead of 512. Smaller allocations use operator new.
#ifndef FLAMEFOLD_BIG_ALLOC_H_
#define FLAMEFOLD_BIG_ALLOC_H_

#include <cstddef>
#include <new>
#include <vector>

namespace flamefold {

void* BigAllocate(size_t bytes);
void BigFree(void* p, size_t bytes);

template <typename T>
struct BigAllocator {
  using value_type = T;
  BigAllocator() = default;
  template <typename U>
  BigAllocator(const BigAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(BigAllocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { BigFree(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const BigAllocator<U>&) const { return true; }
};

template <typename T>
using BigVector = std::vector<T, BigAllocator<T>>;

}  // namespace flamefold

#endif  // FLAMEFOLD_BIG_ALLOC_H_
