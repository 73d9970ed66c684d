// UsableCores: how many threads this process can keep busy at once, for the
// tools' defaults (flamefold's --jobs, flamebatch's conversions at a time).
#ifndef FLAMEFOLD_CLI_USABLE_CORES_H_
#define FLAMEFOLD_CLI_USABLE_CORES_H_

#include <string>

namespace flamefold {

/// The cores this process may run on (taskset, cgroup cpusets; else the
/// online ones), at most the CPUs a cgroup CPU quota allows (a container's
/// CPU limit, systemd's CPUQuota=): more threads than the quota would only
/// be throttled in turn. At least 1.
long long UsableCores();

/// The CPUs the cgroup quotas along this process's cgroup path allow, the
/// smallest of them rounded up, read under `root` ("" for the real files):
/// `proc_cgroup` is /proc/self/cgroup's text; cgroup v2's cpu.max
/// ("QUOTA PERIOD", or "max PERIOD") and v1's cpu.cfs_quota_us and
/// cpu.cfs_period_us (quota -1: none) of each cgroup from the process's up
/// to the hierarchy's root. 0 when no quota is set.
long long CgroupCpuLimit(const std::string& proc_cgroup,
                         const std::string& root);

}  // namespace flamefold

#endif  // FLAMEFOLD_CLI_USABLE_CORES_H_
