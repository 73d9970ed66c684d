// BigAllocator: an allocator for the large tables of the folding stages.
//
// Allocations of 512 KiB and more are mapped directly, in whole 2 MiB
// units: a table that grows moves its pages (mremap) instead of copying
// them into fresh ones, and pages never written are never faulted in.
// Smaller allocations use operator new. The pages are the kernel's default
// size (see BigAllocate for why no huge pages are asked for).
#ifndef FLAMEFOLD_BASE_BIG_ALLOC_H_
#define FLAMEFOLD_BASE_BIG_ALLOC_H_

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace flamefold {

void* BigAllocate(size_t bytes);
/// BigAllocate, with every byte zero. A mapped block comes zeroed from the
/// kernel and has its pages faulted in at once: for tables that will be
/// used whole (a hash table more than a quarter full).
void* BigAllocateZeroed(size_t bytes);
void BigFree(void* p, size_t bytes);
/// Faults in, writable and in one call, the first `bytes` (capped at
/// kPrefaultMax in big_alloc.cc) of the block `p` of `alloc_bytes` (from
/// BigAllocate or operator new), when that is at least kPrefaultMin: for a
/// buffer about to be written whole (a symbol table filled in a loop). Page
/// by page, each first write would take a fault of its own, and in a VM a
/// fault is dear. The contents stay as they are;
/// pages already there cost a look.
void BigPrefault(void* p, size_t alloc_bytes, size_t bytes);
/// BigPrefault of a BigVector's reserved capacity.
template <typename V>
void BigPrefaultCapacity(V* v) {
  using T = typename V::value_type;
  BigPrefault(v->data(), v->capacity() * sizeof(T),
              v->capacity() * sizeof(T));
}
/// How many bytes BigAllocate(bytes) really provides (a mapped block is a
/// whole number of 2 MiB pages): callers that can use them all ask for
/// this much, and give this size back to BigFree and BigReallocate.
size_t BigUsable(size_t bytes);
/// Grows a block from BigAllocate(old_bytes) to new_bytes (> old_bytes),
/// keeping its contents. A mapped block keeps its pages: they are moved
/// (mremap) into the larger mapping, not copied, so a table that doubles
/// does not fault in and zero its old size again.
void* BigReallocate(void* p, size_t old_bytes, size_t new_bytes);

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

/// An append-only array of trivially copyable values that grows with
/// BigReallocate: for the large tables that only grow while the input is
/// read (a std::vector would copy each old buffer into fresh pages).
template <typename T>
class BigArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  BigArray() = default;
  ~BigArray() { BigFree(data_, capacity_ * sizeof(T)); }
  BigArray(const BigArray&) = delete;
  BigArray& operator=(const BigArray&) = delete;
  BigArray(BigArray&& o) noexcept { *this = std::move(o); }
  BigArray& operator=(BigArray&& o) noexcept {
    if (this != &o) {
      BigFree(data_, capacity_ * sizeof(T));
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void push_back(const T& v) {
    if (size_ == capacity_) Grow(size_ + 1);
    data_[size_++] = v;
  }
  /// Empties the array, keeping its memory for the values to come.
  void clear() { size_ = 0; }
  /// Sets the size to `n`; values past the old size are left unset, so a
  /// buffer about to be overwritten is not zeroed (nor faulted in) first.
  void resize_for_overwrite(size_t n) {
    if (n > capacity_) Grow(n);
    size_ = n;
  }
  /// Appends the `n` values at `p` (which must not point into this array).
  void append(const T* p, size_t n) {
    if (size_ + n > capacity_) Grow(size_ + n);
    if (n > 0) std::memcpy(data_ + size_, p, n * sizeof(T));
    size_ += n;
  }

 private:
  void Grow(size_t need) {
    size_t cap = capacity_ == 0 ? 1024 : capacity_ * 2;
    while (cap < need) cap *= 2;
    cap = BigUsable(cap * sizeof(T)) / sizeof(T);
    data_ = static_cast<T*>(
        data_ == nullptr
            ? BigAllocate(cap * sizeof(T))
            : BigReallocate(data_, capacity_ * sizeof(T), cap * sizeof(T)));
    capacity_ = cap;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_BIG_ALLOC_H_
