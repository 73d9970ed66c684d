// The program profiled for the DWARF call graph golden tests (see
// testdata/perf-data/record.sh): built -O2 -g without frame pointers, so
// that only DWARF unwinding finds the callers. C++ templates, lambdas
// called through std::function, small functions inlined into their
// callers, recursion, an anonymous namespace; "threads" runs the same work
// on three threads (pthreads: std::thread would link most of libstdc++).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <pthread.h>
#include <vector>

namespace {

volatile uint64_t sink;

// Inlined into its callers at -O2.
inline uint64_t Mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x9e3779b97f4a7c15ULL;
  return x ^ (x >> 29);
}

inline uint64_t MixTwice(uint64_t x) { return Mix(Mix(x) + 1); }

__attribute__((noinline)) uint64_t Fib(int n) {
  return n < 2 ? static_cast<uint64_t>(n) : Fib(n - 1) + Fib(n - 2);
}

}  // namespace

namespace shapes {

template <typename T>
struct Accumulator {
  T total{};
  void operator()(T v) { total += static_cast<T>(MixTwice(static_cast<uint64_t>(v))); }
};

template <typename T, int kRounds>
__attribute__((noinline)) T SumSquares(const std::vector<T>& values) {
  T sum{};
  for (int r = 0; r < kRounds; ++r) {
    for (const T& v : values) sum += v * v + static_cast<T>(r);
  }
  return sum;
}

__attribute__((noinline)) uint64_t RunCallbacks(const std::function<void(uint64_t)>& fn, int n) {
  for (int i = 0; i < n; ++i) fn(static_cast<uint64_t>(i));
  return static_cast<uint64_t>(n);
}

}  // namespace shapes

static uint64_t Work(int scale) {
  uint64_t result = 0;
  std::vector<double> doubles(2048, 1.5);
  std::vector<int64_t> ints(2048, 3);
  shapes::Accumulator<uint64_t> acc;
  std::function<void(uint64_t)> callback = [&acc](uint64_t v) { acc(v); };
  auto square_all = [&](int rounds) {
    for (int i = 0; i < rounds; ++i) {
      result += static_cast<uint64_t>(shapes::SumSquares<double, 40>(doubles));
      result += static_cast<uint64_t>(shapes::SumSquares<int64_t, 40>(ints));
    }
  };
  for (int s = 0; s < scale; ++s) {
    result += Fib(27);
    square_all(10);
    result += shapes::RunCallbacks(callback, 400000);
  }
  return result + acc.total;
}

static void* ThreadMain(void* arg) {
  sink = Work(*static_cast<int*>(arg));
  return nullptr;
}

int main(int argc, char** argv) {
  bool threads = argc > 1 && argv[1][0] == 't';
  int scale = argc > 2 ? std::atoi(argv[2]) : 10;
  if (!threads) {
    sink = Work(scale);
  } else {
    pthread_t pool[3];
    static int scales[3];
    for (int t = 0; t < 3; ++t) {
      scales[t] = scale + t;
      pthread_create(&pool[t], nullptr, ThreadMain, &scales[t]);
    }
    for (pthread_t& th : pool) pthread_join(th, nullptr);
  }
  std::printf("%llu\n", static_cast<unsigned long long>(sink));
  return 0;
}
