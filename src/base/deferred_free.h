// DeferredFree: objects destroyed on a thread of their own, so that their
// teardown overlaps the work that follows instead of delaying it. A
// perf.data replay ends with tables worth milliseconds of freeing (the
// symbol tables of every DSO, a node per distinct frame, mapped blocks
// whose unmapping interrupts every core the process runs on): handed here,
// they go while the caller sorts and writes its output.
#ifndef FLAMEFOLD_BASE_DEFERRED_FREE_H_
#define FLAMEFOLD_BASE_DEFERRED_FREE_H_

#include <memory>
#include <thread>
#include <vector>

namespace flamefold {

class DeferredFree {
 public:
  DeferredFree() = default;
  /// Waits until everything handed over is destroyed.
  ~DeferredFree();
  DeferredFree(const DeferredFree&) = delete;
  DeferredFree& operator=(const DeferredFree&) = delete;

  /// Destroys `objects` in their order on another thread (here and now
  /// when no thread can be started). Their destructors must not touch
  /// what the caller goes on using.
  void Add(std::vector<std::shared_ptr<void>> objects);

 private:
  std::vector<std::thread> threads_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_DEFERRED_FREE_H_
