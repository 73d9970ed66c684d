// DeferredFree: objects destroyed on a thread of their own, so that their
// teardown overlaps the work that follows instead of delaying it. A
// perf.data replay ends with large tables to free (the symbol tables of
// every DSO, a node per distinct frame, mapped blocks whose unmapping
// interrupts every core the process runs on): handed here, they go while
// the caller sorts and writes its output.
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
  /// what the caller goes on using. They are moved in, so that the last
  /// reference to each is that thread's: a copy left with the caller (an
  /// initializer list keeps one until the end of its expression) could be
  /// the last to go, on the caller's thread and out of order. Order
  /// matters: a --call-graph dwarf replay's thread opening debug files
  /// reads the DSOs of its symbols, so the replay goes before them.
  template <typename... T>
  void Add(std::shared_ptr<T>&&... objects) {
    std::vector<std::shared_ptr<void>> all;
    all.reserve(sizeof...(T));
    (all.push_back(std::move(objects)), ...);
    AddAll(std::move(all));
  }

 private:
  void AddAll(std::vector<std::shared_ptr<void>> objects);

  std::vector<std::thread> threads_;
};

}  // namespace flamefold

#endif  // FLAMEFOLD_BASE_DEFERRED_FREE_H_
