// BoundedQueue: the one queue that hands work from a producing thread to
// consuming ones. Its capacity keeps memory at a few items whatever the
// input size: a full queue makes the producer wait (Push) or do the work
// itself (TryPush refuses).
#ifndef FLAMEFOLD_BASE_BOUNDED_QUEUE_H_
#define FLAMEFOLD_BASE_BOUNDED_QUEUE_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace flamefold {

template <typename T>
class BoundedQueue {
 public:
  /// How long a thread about to wait spins first (see SpinWhile).
  struct Spin {
    std::chrono::microseconds pop{50}, push{50};
  };
  /// A queue that holds at most `capacity` items (with 0, TryPush always
  /// refuses: the producer does all the work). `spin`: 0 for a side that
  /// is mostly ahead of the other and shares the cores with it, where
  /// spinning only takes their time.
  explicit BoundedQueue(size_t capacity, Spin spin = {})
      : capacity_(capacity), spin_(spin), full_(capacity == 0) {}
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  /// Adds `*item` (moving it) if there is room; false, leaving it, if not
  /// or once stopped.
  bool TryPush(T* item) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_ || items_.size() >= capacity_) return false;
    Put(item);
    return true;
  }
  /// Adds `*item` (moving it), waiting for room; false once stopped (the
  /// consumers gave up: the item is left where it was).
  bool Push(T* item) {
    SpinWhile(spin_.push,
              [&] { return full_.load(std::memory_order_relaxed); });
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock,
                   [&] { return items_.size() < capacity_ || stopped_; });
    if (stopped_) return false;
    Put(item);
    return true;
  }
  /// The oldest item, waiting for one; nullopt once closed and empty.
  std::optional<T> Pop() {
    SpinWhile(spin_.pop,
              [&] { return empty_.load(std::memory_order_relaxed); });
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !items_.empty() || closed_; });
    return Take();
  }
  /// The oldest item if there is one, else nullopt at once.
  std::optional<T> TryPop() {
    std::lock_guard<std::mutex> lock(mu_);
    return Take();
  }
  /// The producer is done: Pop returns what is queued, then nullopt.
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    empty_.store(false, std::memory_order_relaxed);
    not_empty_.notify_all();
  }
  /// The consumers are done (an error, say): pushes fail from now on and a
  /// producer waiting for room wakes up.
  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    full_.store(false, std::memory_order_relaxed);
    not_full_.notify_all();
  }

 private:
  // Before it sleeps, a thread that is to wait spins a while, watching for
  // the change it waits for: most waits here are short (a block being
  // written, a chunk being cut), and waking a sleeping thread costs its waker
  // an interrupt to the sleeper's core, dear in a VM (an output thread whose
  // writer slept at every block would pay one per block). A notify with no
  // sleeper is a no-op.
  template <typename Waiting>
  static void SpinWhile(std::chrono::microseconds spin,
                        const Waiting& waiting) {
    if (spin.count() == 0 || !waiting()) return;  // usually: no clock read
    using Clock = std::chrono::steady_clock;
    const Clock::time_point until = Clock::now() + spin;
    for (int i = 1; waiting(); ++i) {
      if (i % 64 == 0 && Clock::now() > until) return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }
  void Put(T* item) {
    items_.push_back(std::move(*item));
    Update();
    not_empty_.notify_one();
  }
  std::optional<T> Take() {
    if (items_.empty()) return std::nullopt;
    std::optional<T> item(std::move(items_.front()));
    items_.pop_front();
    Update();
    not_full_.notify_one();
    return item;
  }
  // Called with mu_ held: the hints SpinWhile watches.
  void Update() {
    empty_.store(items_.empty() && !closed_, std::memory_order_relaxed);
    full_.store(items_.size() >= capacity_ && !stopped_,
                std::memory_order_relaxed);
  }

  const size_t capacity_;
  const Spin spin_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> items_;
  bool closed_ = false, stopped_ = false;
  // Hints read without the lock: whether a Pop or a Push would wait.
  std::atomic<bool> empty_{true}, full_{false};
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_BOUNDED_QUEUE_H_
