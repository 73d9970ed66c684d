#include "cli/usable_cores.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string_view>

#include "io/file_source.h"

namespace flamefold {
namespace {

std::string ReadSmallFile(const std::string& path) {
  std::string text, err;
  return ReadFile(path, &text, &err) ? text : std::string();
}

// ceil(quota / period) for a quota in force, else 0.
long long QuotaCpus(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return 0;
  return (quota + period - 1) / period;
}

// The smallest nonzero of `a` and `b` (0: no limit).
long long Tighter(long long a, long long b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

// "0::/a/b" (v2) or "4:cpu,cpuacct:/a/b" (v1): whether the line is of
// cgroup v2, or names v1's cpu controller; its path in `*path`.
bool CpuLine(std::string_view line, bool* v2, std::string* path) {
  size_t first = line.find(':');
  size_t second = first == std::string_view::npos
                      ? std::string_view::npos
                      : line.find(':', first + 1);
  if (second == std::string_view::npos) return false;
  std::string_view controllers = line.substr(first + 1, second - first - 1);
  *path = std::string(line.substr(second + 1));
  *v2 = line.substr(0, first) == "0" && controllers.empty();
  if (*v2) return true;
  for (size_t at = 0; at <= controllers.size();) {
    size_t comma = std::min(controllers.find(',', at), controllers.size());
    if (controllers.substr(at, comma - at) == "cpu") return true;
    at = comma + 1;
  }
  return false;
}

// The quota of one cgroup directory: v2's cpu.max, or v1's two files.
long long DirLimit(const std::string& dir, bool v2) {
  if (v2) {
    std::istringstream max(ReadSmallFile(dir + "/cpu.max"));
    std::string quota;
    long long period = 0;
    if (!(max >> quota >> period) || quota == "max") return 0;
    return QuotaCpus(std::atoll(quota.c_str()), period);
  }
  std::string quota = ReadSmallFile(dir + "/cpu.cfs_quota_us");
  std::string period = ReadSmallFile(dir + "/cpu.cfs_period_us");
  if (quota.empty() || period.empty()) return 0;
  return QuotaCpus(std::atoll(quota.c_str()), std::atoll(period.c_str()));
}

}  // namespace

long long CgroupCpuLimit(const std::string& proc_cgroup,
                         const std::string& root) {
  long long limit = 0;
  std::istringstream lines(proc_cgroup);
  std::string line, path;
  bool v2 = false;
  while (std::getline(lines, line)) {
    if (!CpuLine(line, &v2, &path) || path.empty() || path[0] != '/') {
      continue;
    }
    const std::string mount =
        root + (v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/cpu");
    // The process's cgroup, then each parent, up to the mount's root.
    for (;;) {
      limit = Tighter(limit, DirLimit(mount + (path == "/" ? "" : path), v2));
      if (path == "/") break;
      size_t slash = path.rfind('/');
      path = slash == 0 ? "/" : path.substr(0, slash);
    }
  }
  return limit;
}

long long UsableCores() {
  long long cores = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) cores = CPU_COUNT(&set);
  if (cores <= 0) cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  const long long quota =
      CgroupCpuLimit(ReadSmallFile("/proc/self/cgroup"), "");
  return std::max(1LL, quota > 0 ? std::min(cores, quota) : cores);
}

}  // namespace flamefold
