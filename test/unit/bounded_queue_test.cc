// BoundedQueue: items come out in order, never more than the capacity wait,
// Close drains then ends, Stop releases a waiting producer, and items cross
// threads intact.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "base/bounded_queue.h"

using flamefold::BoundedQueue;

TEST_CASE("BoundedQueue keeps order and refuses past its capacity") {
  BoundedQueue<int> q(2);
  int a = 1, b = 2, c = 3;
  CHECK(q.TryPush(&a));
  CHECK(q.TryPush(&b));
  CHECK_FALSE(q.TryPush(&c));
  CHECK(c == 3);  // a refused item is left where it was
  CHECK(q.TryPop() == 1);
  CHECK(q.TryPush(&c));
  CHECK(q.Pop() == 2);
  CHECK(q.Pop() == 3);
  CHECK(q.TryPop() == std::nullopt);
  BoundedQueue<int> none(0);
  CHECK_FALSE(none.TryPush(&a));
}

TEST_CASE("BoundedQueue moves items in and Close drains before ending") {
  BoundedQueue<std::unique_ptr<int>> q(4);
  auto p = std::make_unique<int>(7);
  CHECK(q.TryPush(&p));
  CHECK(p == nullptr);
  q.Close();
  std::optional<std::unique_ptr<int>> got = q.Pop();
  REQUIRE(got.has_value());
  CHECK(**got == 7);
  CHECK_FALSE(q.Pop().has_value());  // closed and empty: no wait
}

TEST_CASE("BoundedQueue Stop wakes a producer waiting for room") {
  BoundedQueue<int> q(1);
  int a = 1, b = 2;
  CHECK(q.Push(&a));
  std::atomic<int> result{-1};
  std::thread producer([&] { result = q.Push(&b) ? 1 : 0; });
  q.Stop();
  producer.join();
  CHECK(result == 0);
  CHECK_FALSE(q.TryPush(&b));
}

TEST_CASE("BoundedQueue hands every item across threads exactly once") {
  BoundedQueue<int> q(3);
  constexpr int kItems = 20000;
  std::vector<int> seen(kItems, 0);
  std::vector<std::thread> consumers;
  std::atomic<long> sum{0};
  for (int t = 0; t < 3; ++t) {
    consumers.emplace_back([&] {
      while (std::optional<int> item = q.Pop()) {
        seen[*item]++;  // each index is popped by one thread only
        sum += *item;
      }
    });
  }
  for (int i = 0; i < kItems; ++i) {
    int item = i;
    REQUIRE(q.Push(&item));
  }
  q.Close();
  for (std::thread& t : consumers) t.join();
  int once = 0;
  for (int n : seen) once += n == 1;
  CHECK(once == kItems);
  CHECK(sum == long{kItems} * (kItems - 1) / 2);
}

// A thread that is to wait spins a while before it sleeps (SpinWhile): a
// wait far longer than the spin must still end when the item, the room or
// the close comes, whether the spin or the sleep sees it; and so must a
// wait without spinning.
TEST_CASE("BoundedQueue waits past its spin for an item, for room and for Close") {
  using namespace std::chrono_literals;
  const BoundedQueue<int>::Spin no_spin{0us, 0us};
  for (auto spin : {BoundedQueue<int>::Spin{}, no_spin})
  for (auto delay : {0ms, 1ms, 20ms}) {
    CAPTURE(delay.count());
    CAPTURE(spin.pop.count());
    BoundedQueue<int> q(1, spin);
    std::optional<int> got;
    std::thread consumer([&] { got = q.Pop(); });
    std::this_thread::sleep_for(delay);
    int a = 5;
    CHECK(q.Push(&a));
    consumer.join();
    CHECK(got == 5);

    int b = 6, c = 7;
    CHECK(q.Push(&b));  // full now
    std::atomic<bool> pushed{false};
    std::thread producer([&] { pushed = q.Push(&c); });
    std::this_thread::sleep_for(delay);
    CHECK(q.Pop() == 6);
    producer.join();
    CHECK(pushed);
    CHECK(q.Pop() == 7);

    std::optional<int> after_close = 1;
    std::thread closed([&] { after_close = q.Pop(); });
    std::this_thread::sleep_for(delay);
    q.Close();
    closed.join();
    CHECK_FALSE(after_close.has_value());
  }
}
