// A small CPU-bound program whose stacks exercise the C++ names that
// stackcollapse-perf.pl has to tidy: templates, lambdas, std::function,
// an anonymous namespace, operator(), inlined calls and recursion.
// Profiled by the commands in testdata/README.md; the result is printed so
// the compiler cannot drop the work.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

// Recursion: the stack grows with n.
__attribute__((noinline)) uint64_t Fib(int n) { return n < 2 ? static_cast<uint64_t>(n) : Fib(n - 1) + Fib(n - 2); }

// Small enough to be inlined into its caller at -O2.
inline uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  return x ^ (x >> 29);
}

}  // namespace

namespace work {

template <typename T>
struct Accumulator {
  T total{};
  // operator() called through std::function and directly.
  void operator()(T v) { total += static_cast<T>(Mix(static_cast<uint64_t>(v))); }
};

template <typename T, int kRounds>
__attribute__((noipa)) T SumSquares(const std::vector<T>& values) {
  T sum{};
  for (int r = 0; r < kRounds; ++r) {
    for (const T& v : values) sum += v * v + static_cast<T>(r);
  }
  return sum;
}

class Sorter {
 public:
  __attribute__((noinline)) size_t SortStrings(int count) {
    std::map<std::string, int> words;
    for (int i = 0; i < count; ++i) {
      words[std::to_string(Mix(static_cast<uint64_t>(i)) % 100000)] += i;
    }
    return words.size();
  }
};

__attribute__((noinline)) uint64_t RunCallbacks(const std::function<void(uint64_t)>& fn, int n) {
  for (int i = 0; i < n; ++i) fn(static_cast<uint64_t>(i));
  return static_cast<uint64_t>(n);
}

}  // namespace work

int main(int argc, char** argv) {
  int scale = argc > 1 ? std::atoi(argv[1]) : 10;
  uint64_t result = 0;
  std::vector<double> doubles(4096, 1.5);
  std::vector<int64_t> ints(4096, 3);
  work::Accumulator<uint64_t> acc;
  std::function<void(uint64_t)> callback = [&acc](uint64_t v) { acc(v); };
  auto square_all = [&](int rounds) {
    for (int i = 0; i < rounds; ++i) {
      result += static_cast<uint64_t>(work::SumSquares<double, 50>(doubles));
      result += static_cast<uint64_t>(work::SumSquares<int64_t, 50>(ints));
    }
  };
  for (int s = 0; s < scale; ++s) {
    result += Fib(32);
    square_all(20);
    result += work::RunCallbacks(callback, 2000000);
    result += work::Sorter().SortStrings(15000);
  }
  std::printf("%llu %llu\n", static_cast<unsigned long long>(result),
              static_cast<unsigned long long>(acc.total));
  return 0;
}
