#include "perfdata/fold_thread.h"

#include <pthread.h>

#include <optional>
#include <utility>

namespace flamefold {

FoldThread::FoldThread(RecordedSamples* samples)
    : samples_(samples), thread_([this] { Run(); }) {}

FoldThread::~FoldThread() {
  full_.Close();
  thread_.join();
}

std::unique_ptr<HeldSamples> FoldThread::Empty() {
  std::optional<std::unique_ptr<HeldSamples>> batch = empty_.TryPop();
  return batch ? std::move(*batch) : std::make_unique<HeldSamples>();
}

void FoldThread::Send(std::unique_ptr<HeldSamples> batch) {
  ++sent_;
  full_.Push(&batch);  // never stopped: Run takes every batch
}

bool FoldThread::Drain(std::string* err) {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [&] { return done_ == sent_; });
  if (error_.empty()) return true;
  *err = error_;
  return false;
}

void FoldThread::Run() {
  pthread_setname_np(pthread_self(), "flamefold-fold");
  while (std::optional<std::unique_ptr<HeldSamples>> batch = full_.Pop()) {
    HeldSamples& samples = **batch;
    std::string err;
    for (size_t i = 0; !failed_.load(std::memory_order_relaxed) &&
                       i < samples.size();
         ++i) {
      if (samples_->Put(samples.at(i), &err)) continue;
      std::lock_guard<std::mutex> lock(mu_);
      error_ = err;
      failed_.store(true, std::memory_order_relaxed);
    }
    samples.Clear();
    empty_.TryPush(&*batch);  // refused: the batch goes with its pointer
    std::lock_guard<std::mutex> lock(mu_);
    ++done_;
    idle_.notify_all();
  }
}

}  // namespace flamefold
