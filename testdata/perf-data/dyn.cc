// A dynamically linked C++ program for the perf.data goldens: three
// threads fill std::maps keyed by std::string (libstdc++'s tree code and
// operator new in libc), sort vectors with a lambda, and an anonymous
// namespace (whose frames stackcollapse-perf.pl drops). Built without frame
// pointers for DWARF unwinding, with them for frame-pointer call graphs.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

template <typename Key>
struct Tally {
  std::map<Key, long> counts;
  __attribute__((noinline)) void Add(const Key& k, long v) { counts[k] += v; }
};

__attribute__((noinline)) long Fill(unsigned seed, int n) {
  Tally<std::string> t;
  for (int i = 0; i < n; ++i) {
    unsigned k = (static_cast<unsigned>(i) * 7919u + seed) % 40000u;
    t.Add("key" + std::to_string(k), i);
  }
  long sum = 0;
  for (const auto& [k, v] : t.counts) sum += v + static_cast<long>(k.size());
  return sum;
}

__attribute__((noinline)) long SortAll(unsigned seed, int n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = static_cast<double>((i * 40503u + seed) % 99991u);
  std::sort(v.begin(), v.end(), [](double a, double b) { return a > b; });
  return static_cast<long>(v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::vector<std::thread> threads;
  std::vector<long> out(3);
  for (unsigned t = 0; t < 3; ++t) {
    threads.emplace_back([t, n, &out] {
      out[t] = Fill(t, n) + SortAll(t, n * 4);
    });
  }
  for (auto& th : threads) th.join();
  std::printf("%ld\n", out[0] + out[1] + out[2]);
  return 0;
}
