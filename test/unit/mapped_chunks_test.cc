// The bookkeeping of a mapped file's chunks: LineBases gives each chunk the
// number of the lines before it whatever the order (and the threads) its
// counts come in; MappedChunks says where the first chunk not yet parsed
// begins.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "collapse/mapped_chunks.h"

using flamefold::LineBases;
using flamefold::MappedChunks;

TEST_CASE("LineBases gives each chunk the lines before it, counted in any order") {
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    const size_t chunks = 1 + rng() % 300;
    std::vector<uint64_t> lines(chunks);
    for (uint64_t& n : lines) n = rng() % 5000;
    const uint64_t first = rng() % 1000;
    std::vector<uint64_t> want(chunks);
    uint64_t sum = first;
    for (size_t k = 0; k < chunks; ++k) {
      want[k] = sum;
      sum += lines[k];
    }
    // Four threads take the chunks in order, as the parsing threads do,
    // each counting at its own pace.
    LineBases bases(first);
    std::vector<uint64_t> got(chunks, UINT64_MAX);
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        std::mt19937 pace(round * 10 + t);
        for (size_t k; (k = next.fetch_add(1)) < chunks;) {
          if (pace() % 4 == 0) std::this_thread::yield();
          got[k] = bases.Counted(k, lines[k]);
        }
      });
    }
    for (std::thread& t : threads) t.join();
    CHECK(got == want);
    CHECK(bases.Total(chunks) == sum);
  }
}

TEST_CASE("MappedChunks says where the first chunk not parsed begins") {
  MappedChunks chunks;
  CHECK(chunks.ParsedUpTo(0) == 0);
  const size_t a = chunks.Start(100);
  const size_t b = chunks.Start(250);
  const size_t c = chunks.Start(400);
  CHECK(chunks.ParsedUpTo(500) == 100);
  chunks.Done(b);  // out of order: the first is still being parsed
  CHECK(chunks.ParsedUpTo(500) == 100);
  chunks.Done(a);
  CHECK(chunks.ParsedUpTo(500) == 400);
  chunks.Done(c);
  CHECK(chunks.ParsedUpTo(500) == 500);
  const size_t d = chunks.Start(500);
  CHECK(d == c + 1);
  CHECK(chunks.ParsedUpTo(700) == 500);
}
