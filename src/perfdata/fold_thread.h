// FoldThread: RecordedSamples on a thread of its own. The replay sends it
// batches of held samples whose frames are all named, in order, and goes on
// naming the next samples' frames meanwhile: the fold's share (frames named
// by id, the sample's frames assembled and counted) is a large part of the
// replay thread's work.
#ifndef FLAMEFOLD_PERFDATA_FOLD_THREAD_H_
#define FLAMEFOLD_PERFDATA_FOLD_THREAD_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/bounded_queue.h"
#include "perfdata/held_samples.h"
#include "perfdata/recorded_samples.h"

namespace flamefold {

class FoldThread {
 public:
  /// Starts the thread, which alone uses `samples` (and the frames of the
  /// samples sent) until Drain returns.
  explicit FoldThread(RecordedSamples* samples);
  /// Drains and stops the thread.
  ~FoldThread();
  FoldThread(const FoldThread&) = delete;
  FoldThread& operator=(const FoldThread&) = delete;

  /// An empty batch to fill: one the thread is done with, or a new one.
  std::unique_ptr<HeldSamples> Empty();
  /// Queues `batch`, whose frames must all be kNamed or kUnwound, for
  /// RecordedSamples::Put; waits while a few batches are queued.
  void Send(std::unique_ptr<HeldSamples> batch);
  /// Waits until every batch sent is put. False with the first error
  /// RecordedSamples gave (the batches after it are dropped). Until the next
  /// Send, the caller may use `samples` itself.
  bool Drain(std::string* err);

 private:
  void Run();

  RecordedSamples* samples_;
  // Batches to put, and batches put, emptied for reuse. As the thread starts,
  // the replay sends it the samples it held (on a build host's recording,
  // many of them) faster than they are put, and should not wait for it: room
  // for 128 batches of a few hundred samples. Then the thread is mostly ahead
  // of the replay and waits for each batch: without spinning first, which
  // would take time from the other threads.
  BoundedQueue<std::unique_ptr<HeldSamples>> full_{
      128, {.pop = std::chrono::microseconds(0)}};
  BoundedQueue<std::unique_ptr<HeldSamples>> empty_{128};
  std::mutex mu_;
  std::condition_variable idle_;
  uint64_t sent_ = 0, done_ = 0;  // batches (done_: under mu_)
  std::string error_;              // under mu_
  std::atomic<bool> failed_{false};
  std::thread thread_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_PERFDATA_FOLD_THREAD_H_
