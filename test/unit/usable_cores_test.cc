// CgroupCpuLimit on cgroup trees laid out under a temporary root: v2's
// cpu.max and v1's cfs files, read from the process's cgroup up to the root,
// the tightest quota winning; UsableCores never below 1.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/usable_cores.h"

namespace flamefold {
namespace {

namespace fs = std::filesystem;

struct TempRoot {
  TempRoot() {
    char name[] = "/tmp/flamefold_cgroupXXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempRoot() { fs::remove_all(path); }
  void Write(const std::string& file, const std::string& text) const {
    fs::create_directories(fs::path(path + file).parent_path());
    std::ofstream(path + file) << text;
  }
  std::string path;
};

TEST_CASE("cgroup v2: the tightest cpu.max from the process's cgroup up") {
  TempRoot root;
  root.Write("/sys/fs/cgroup/cpu.max", "max 100000\n");
  root.Write("/sys/fs/cgroup/kubepods/cpu.max", "400000 100000\n");
  root.Write("/sys/fs/cgroup/kubepods/pod1/cpu.max", "150000 100000\n");
  root.Write("/sys/fs/cgroup/kubepods/pod1/ctr/cpu.max", "max 100000\n");
  CHECK(CgroupCpuLimit("0::/kubepods/pod1/ctr\n", root.path) == 2);  // 1.5
  CHECK(CgroupCpuLimit("0::/kubepods\n", root.path) == 4);
  CHECK(CgroupCpuLimit("0::/\n", root.path) == 0);  // "max": no quota
  // Inside a container's cgroup namespace its own cgroup is "/".
  TempRoot ns;
  ns.Write("/sys/fs/cgroup/cpu.max", "50000 100000\n");
  CHECK(CgroupCpuLimit("0::/\n", ns.path) == 1);
}

TEST_CASE("cgroup v1: cpu.cfs_quota_us over cpu.cfs_period_us") {
  TempRoot root;
  root.Write("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
  root.Write("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
  root.Write("/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_quota_us", "300000\n");
  root.Write("/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_period_us", "100000\n");
  const std::string cgroup =
      "12:memory:/docker/abc\n"
      "4:cpu,cpuacct:/docker/abc\n"
      "1:name=systemd:/docker/abc\n";
  CHECK(CgroupCpuLimit(cgroup, root.path) == 3);
  CHECK(CgroupCpuLimit("4:cpu,cpuacct:/\n", root.path) == 0);  // -1: none
  // The cpu controller named alone, or not at all ("cpuset" is another).
  CHECK(CgroupCpuLimit("3:cpu:/docker/abc\n", root.path) == 3);
  CHECK(CgroupCpuLimit("5:cpuset:/docker/abc\n", root.path) == 0);
}

TEST_CASE("no cgroup files, odd lines: no limit; UsableCores at least 1") {
  TempRoot empty;
  CHECK(CgroupCpuLimit("0::/a/b\n", empty.path) == 0);
  CHECK(CgroupCpuLimit("garbage\n::\n0::relative\n", empty.path) == 0);
  CHECK(UsableCores() >= 1);
}

}  // namespace
}  // namespace flamefold
