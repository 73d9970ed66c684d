// ab_pairs RUNS FILE BINARY...: a before/after of two or more builds of a
// tool on one input (`BINARY -q FILE`, output to /dev/null: flamefold,
// flamesvg, flamereport). Each round runs every binary once, in turn, the
// order reversed every other round; each run's wall time comes from the
// clock, its CPU time from wait4's rusage. Printed per binary: the medians,
// then the mean of its differences from the first binary in the same round
// with the standard error of that mean, and the median difference. Paired
// differences cancel a drift of the host's speed that medians of separate
// runs take for a change.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct Run {
  double wall_ms = 0, cpu_ms = 0;
};

// One run of `binary` on `file`; false if it could not be started or failed.
bool RunOnce(const std::string& binary, const std::string& file, Run* out) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv = {const_cast<char*>(binary.c_str()),
                             const_cast<char*>("-q"),
                             const_cast<char*>(file.c_str()), nullptr};
  auto start = std::chrono::steady_clock::now();
  pid_t pid;
  int rc = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(),
                       environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return false;
  int status = 0;
  struct rusage usage {};
  if (wait4(pid, &status, 0, &usage) != pid) return false;
  std::chrono::duration<double, std::milli> wall =
      std::chrono::steady_clock::now() - start;
  out->wall_ms = wall.count();
  out->cpu_ms = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
                (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// "mean ± standard error (median m)" of `d`.
std::string Summary(const std::vector<double>& d) {
  double sum = 0, squares = 0;
  for (double x : d) {
    sum += x;
    squares += x * x;
  }
  double n = static_cast<double>(d.size());
  double mean = sum / n;
  double err = std::sqrt(std::max(0.0, squares / n - mean * mean) / n);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%+6.2f ± %.2f (median %+6.2f)", mean, err,
                Median(d));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = argc > 3 ? std::atoi(argv[1]) : 0;
  if (rounds <= 0) {
    std::fprintf(stderr, "usage: ab_pairs RUNS FILE BINARY...\n");
    return 2;
  }
  std::string file = argv[2];
  std::vector<std::string> bins(argv + 3, argv + argc);
  size_t b = bins.size();
  std::vector<std::vector<Run>> runs(b, std::vector<Run>(rounds));
  for (int r = 0; r < rounds; ++r) {
    for (size_t k = 0; k < b; ++k) {
      size_t i = r % 2 ? b - 1 - k : k;
      if (!RunOnce(bins[i], file, &runs[i][r])) {
        std::fprintf(stderr, "ab_pairs: %s -q %s failed\n", bins[i].c_str(),
                     file.c_str());
        return 1;
      }
    }
  }
  for (size_t i = 0; i < b; ++i) {
    std::vector<double> wall, cpu, dwall, dcpu;
    for (int r = 0; r < rounds; ++r) {
      wall.push_back(runs[i][r].wall_ms);
      cpu.push_back(runs[i][r].cpu_ms);
      dwall.push_back(runs[i][r].wall_ms - runs[0][r].wall_ms);
      dcpu.push_back(runs[i][r].cpu_ms - runs[0][r].cpu_ms);
    }
    std::printf("%s: wall %.2f ms, CPU %.2f ms (medians)", bins[i].c_str(),
                Median(wall), Median(cpu));
    if (i > 0) {
      std::printf("; against the first: wall %s ms, CPU %s ms",
                  Summary(dwall).c_str(), Summary(dcpu).c_str());
    }
    std::printf("\n");
  }
  return 0;
}
