// BoundedQueue: the one queue that hands work from a producing thread to
// consuming ones. Its capacity keeps memory at a few items whatever the
// input size: a full queue makes the producer wait (Push) or do the work
// itself (TryPush refuses).
#ifndef FLAMEFOLD_BASE_BOUNDED_QUEUE_H_
#define FLAMEFOLD_BASE_BOUNDED_QUEUE_H_

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
  /// A queue that holds at most `capacity` items (with 0, TryPush always
  /// refuses: the producer does all the work).
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}
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
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock,
                   [&] { return items_.size() < capacity_ || stopped_; });
    if (stopped_) return false;
    Put(item);
    return true;
  }
  /// The oldest item, waiting for one; nullopt once closed and empty.
  std::optional<T> Pop() {
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
    not_empty_.notify_all();
  }
  /// The consumers are done (an error, say): pushes fail from now on and a
  /// producer waiting for room wakes up.
  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    not_full_.notify_all();
  }

 private:
  void Put(T* item) {
    items_.push_back(std::move(*item));
    not_empty_.notify_one();
  }
  std::optional<T> Take() {
    if (items_.empty()) return std::nullopt;
    std::optional<T> item(std::move(items_.front()));
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }

  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> items_;
  bool closed_ = false, stopped_ = false;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_BOUNDED_QUEUE_H_
