#include "base/big_alloc.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace flamefold {

namespace {
// Mapped blocks come in whole units of this size, so that a table that
// doubles is moved (mremap) a few times, not at every step.
constexpr size_t kUnit = 2u << 20;
// From this size on a block is mapped, and grows by moving its pages
// (BigReallocate) instead of copying them into fresh ones.
constexpr size_t kMapped = 512u << 10;
constexpr size_t kPage = 4096;
// Below this, BigPrefault's call costs about what the faults it saves do.
constexpr size_t kPrefaultMin = 64u << 10;
// BigPrefault's most: room reserved for all of a table (a debug file's
// symbols, of which the functions are kept) may go half unused, and past a
// few MB that costs more memory than its faults cost time.
constexpr size_t kPrefaultMax = 8u << 20;
}  // namespace

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

size_t BigUsable(size_t bytes) {
  return bytes < kMapped ? bytes : (bytes + kUnit - 1) / kUnit * kUnit;
}

void* BigAllocate(size_t bytes) {
  if (bytes < kMapped) return ::operator new(bytes);
  size_t len = (bytes + kUnit - 1) / kUnit * kUnit;
  // No MADV_HUGEPAGE: the pages stay the kernel's default size. In VMs whose
  // balloon reports free memory to the host (virtio free page reporting, in
  // blocks of a huge page), the host takes back free huge-page blocks soon
  // after they are freed, so a huge page fault in a process started on an
  // idle machine waits for the host to back the whole huge page, which is
  // slower than faulting small pages in as they are used. flamefold runs once
  // on a fresh machine at least as often as in a loop.
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

void* BigAllocateZeroed(size_t bytes) {
  void* p = BigAllocate(bytes);
  if (bytes < kMapped) {
    std::memset(p, 0, bytes);
  } else {
    // Faulted in now, writable, in one call. A hash table reads a slot
    // before it writes one: left to fault, each page would first map the
    // shared zero page, then take a second fault at the first write, whose
    // TLB flush interrupts every other core running one of our threads.
    // Kernels before 5.14 refuse the advice; the pages then fault as used.
    size_t len = (bytes + kPage - 1) / kPage * kPage;
    madvise(p, len, MADV_POPULATE_WRITE);
  }
  return p;
}

void* BigReallocate(void* p, size_t old_bytes, size_t new_bytes) {
  if (old_bytes < kMapped || new_bytes < kMapped) {
    void* q = BigAllocate(new_bytes);
    std::memcpy(q, p, old_bytes);
    BigFree(p, old_bytes);
    return q;
  }
  size_t old_len = (old_bytes + kUnit - 1) / kUnit * kUnit;
  size_t new_len = (new_bytes + kUnit - 1) / kUnit * kUnit;
  if (new_len == old_len) return p;
  // A new mapping, then the old pages moved over its start.
  void* q = BigAllocate(new_bytes);
  if (mremap(p, old_len, old_len, MREMAP_MAYMOVE | MREMAP_FIXED, q) ==
      MAP_FAILED) {
    std::memcpy(q, p, old_bytes);
    munmap(p, old_len);
  }
  return q;
}

void BigPrefault(void* p, size_t alloc_bytes, size_t bytes) {
  if (p == nullptr || alloc_bytes < kPrefaultMin) return;
  // The pages the block's bytes are on: the first and last may hold other
  // blocks of the heap too, which the advice leaves as they are.
  uintptr_t from = reinterpret_cast<uintptr_t>(p) / kPage * kPage;
  uintptr_t to = reinterpret_cast<uintptr_t>(p) +
                 std::min({bytes, alloc_bytes, kPrefaultMax});
  to = (to + kPage - 1) / kPage * kPage;
  // Refused before Linux 5.14: the pages then fault as they are written.
  madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
}

void BigFree(void* p, size_t bytes) {
  if (p == nullptr) return;
  if (bytes < kMapped) {
    ::operator delete(p);
    return;
  }
  munmap(p, (bytes + kUnit - 1) / kUnit * kUnit);
}

}  // namespace flamefold
