#include "base/deferred_free.h"

#include <system_error>
#include <utility>

namespace flamefold {

namespace {
void DestroyInOrder(std::vector<std::shared_ptr<void>>* all) {
  for (std::shared_ptr<void>& o : *all) o.reset();
}
}  // namespace

DeferredFree::~DeferredFree() {
  for (std::thread& t : threads_) t.join();
}

void DeferredFree::AddAll(std::vector<std::shared_ptr<void>> objects) {
  auto all =
      std::make_shared<std::vector<std::shared_ptr<void>>>(std::move(objects));
  try {
    threads_.emplace_back([all] { DestroyInOrder(all.get()); });
  } catch (const std::system_error&) {
    DestroyInOrder(all.get());  // no thread: here and now
  }
}

}  // namespace flamefold
