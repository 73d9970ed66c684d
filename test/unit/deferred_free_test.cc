// DeferredFree: what it is handed is destroyed in the order given, on a
// thread other than the caller's, and all of it by the time it goes.
#include <doctest/doctest.h>

#include <chrono>
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
    later.Add(std::move(user), std::move(used));
    later.Add(std::make_shared<Logged>(&log, "second"));
    later.Add();
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

// However long the caller's expression lasts (an initializer list keeps
// references until its end), the objects handed over are destroyed on the
// deferring thread, in their order: a --call-graph dwarf replay before its
// symbols.
TEST_CASE("DeferredFree keeps the order when the caller's expression lasts") {
  Logged::Log log;
  {
    DeferredFree later;
    auto user = std::make_shared<Logged>(&log, "user");
    auto used = std::make_shared<Logged>(&log, "used");
    auto wait = [&log] {
      for (int i = 0; i < 2000; ++i) {
        {
          std::lock_guard<std::mutex> lock(log.mu);
          if (log.names.size() == 2) return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    };
    // The expression ends once both are gone (or after 2 s).
    (later.Add(std::move(user), std::move(used)), wait());
  }
  REQUIRE(log.names.size() == 2);
  CHECK(log.names[0] == "user");
  CHECK(log.names[1] == "used");
  for (const std::thread::id& id : log.threads) {
    CHECK(id != std::this_thread::get_id());
  }
}

TEST_CASE("DeferredFree with nothing handed over goes at once") {
  DeferredFree later;  // no thread to wait for
}
