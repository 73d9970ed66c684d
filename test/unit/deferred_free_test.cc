// DeferredFree: what it is handed is destroyed in the order given, on a
// thread other than the caller's, and all of it by the time it goes.
#include <doctest/doctest.h>

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/deferred_free.h"

using flamefold::DeferredFree;

namespace {
// Records its name and the destroying thread in a shared log.
struct Logged {
  struct Log {
    std::mutex mu;
    std::vector<std::string> names;
    std::vector<std::thread::id> threads;
  };
  Logged(Log* log, std::string name) : log(log), name(std::move(name)) {}
  ~Logged() {
    std::lock_guard<std::mutex> lock(log->mu);
    log->names.push_back(name);
    log->threads.push_back(std::this_thread::get_id());
  }
  Log* log;
  std::string name;
};
}  // namespace

TEST_CASE("DeferredFree destroys in order, elsewhere, before it goes") {
  Logged::Log log;
  {
    DeferredFree later;
    auto user = std::make_shared<Logged>(&log, "user");
    auto used = std::make_shared<Logged>(&log, "used");
    later.Add({std::move(user), std::move(used)});
    later.Add({std::make_shared<Logged>(&log, "second")});
    later.Add({});
  }
  REQUIRE(log.names.size() == 3);
  // Within one Add, the given order (a user before what it uses).
  size_t user = 0, used = 0;
  for (size_t i = 0; i < log.names.size(); ++i) {
    if (log.names[i] == "user") user = i;
    if (log.names[i] == "used") used = i;
  }
  CHECK(user < used);
  for (const std::thread::id& id : log.threads) {
    CHECK(id != std::this_thread::get_id());
  }
}

TEST_CASE("DeferredFree with nothing handed over goes at once") {
  DeferredFree later;  // no thread to wait for
}
