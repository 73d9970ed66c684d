#include "base/big_alloc.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>

namespace flamefold {

namespace {
constexpr size_t kHuge = 2u << 20;
// From this size on a block is mapped in huge pages. A growing table's
// 512 KiB and 1 MiB steps then cost one fault each rather than 128 and 256:
// where page faults are dear (a 4 KiB fault costs about 12 us in the VMs
// this was measured on, a warm 2 MiB one about 0.15 ms) that is ten times
// less. Below it, a block would waste most of its 2 MiB page: from 128 KiB
// on, the 200 MiB bench peaked at 44 MiB instead of 31 MiB, no faster.
constexpr size_t kMapped = 512u << 10;
}  // namespace

size_t BigUsable(size_t bytes) {
  return bytes < kMapped ? bytes : (bytes + kHuge - 1) / kHuge * kHuge;
}

void* BigAllocate(size_t bytes) {
  if (bytes < kMapped) return ::operator new(bytes);
  size_t len = (bytes + kHuge - 1) / kHuge * kHuge;
  // Over-map by 2 MiB to align the start on a huge-page boundary.
  void* raw = mmap(nullptr, len + kHuge, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kHuge - 1) / kHuge * kHuge;
  if (aligned > start) munmap(raw, aligned - start);
  uintptr_t end = start + len + kHuge;
  if (end > aligned + len) {
    munmap(reinterpret_cast<void*>(aligned + len), end - (aligned + len));
  }
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, len, MADV_HUGEPAGE);  // a hint: fine if THP is off
  return p;
}

void* BigAllocateZeroed(size_t bytes) {
  void* p = BigAllocate(bytes);
  if (bytes < kMapped) std::memset(p, 0, bytes);
  return p;
}

void* BigReallocate(void* p, size_t old_bytes, size_t new_bytes) {
  if (old_bytes < kMapped || new_bytes < kMapped) {
    void* q = BigAllocate(new_bytes);
    std::memcpy(q, p, old_bytes);
    BigFree(p, old_bytes);
    return q;
  }
  size_t old_len = (old_bytes + kHuge - 1) / kHuge * kHuge;
  size_t new_len = (new_bytes + kHuge - 1) / kHuge * kHuge;
  if (new_len == old_len) return p;
  // A new aligned mapping, then the old pages moved over its start: both
  // are 2 MiB aligned, so huge pages move whole.
  void* q = BigAllocate(new_bytes);
  if (mremap(p, old_len, old_len, MREMAP_MAYMOVE | MREMAP_FIXED, q) ==
      MAP_FAILED) {
    std::memcpy(q, p, old_bytes);
    munmap(p, old_len);
  }
  return q;
}

void BigFree(void* p, size_t bytes) {
  if (p == nullptr) return;
  if (bytes < kMapped) {
    ::operator delete(p);
    return;
  }
  munmap(p, (bytes + kHuge - 1) / kHuge * kHuge);
}

}  // namespace flamefold
