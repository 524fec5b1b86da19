// The scheduler state of a SUT, captured into the run manifest before and
// after a run ("state_before", "state_after"): the sched features list, the
// sched sysctls, the debugfs sched tunables and the cpufreq governors. Only
// reads: nothing is mounted or written.
//
//   {"captured_at": "2024-05-01T10:00:00Z",
//    "sched_features": ["PLACE_LAG", "NO_RUN_TO_PARITY", ...] | null,
//    "sysctls": {"kernel.sched_autogroup_enabled": "1", ...},
//    "debugfs_tunables": {"base_slice_ns": "3000000", ...} | null,
//    "cpufreq_governors": {"performance": "0-7"} | null,
//    "null_reasons": {"sched_features": "debugfs is not mounted on /sys/kernel/debug", ...}}
//
// null_reasons names each null part (and each unreadable sysctl, under
// "sysctls") with why it is null.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "runner/hosts/host.h"

namespace schedlab {

// Where the state lives; tests point these at a directory tree that mimics
// the kernel's.
struct SutStatePaths {
  std::string proc_sys_kernel = "/proc/sys/kernel";
  std::string debugfs = "/sys/kernel/debug";
  std::string cpufreq = "/sys/devices/system/cpu/cpufreq";
  std::string mounts = "/proc/mounts";
  std::string features() const { return debugfs + "/sched/features"; }
  std::string sched_dir() const { return debugfs + "/sched"; }
};

nlohmann::json capture_sut_state(Host& host, const SutStatePaths& paths = {});

// Why debugfs files cannot be found on the host: "debugfs is not mounted on
// /sys/kernel/debug", or empty when it is mounted.
std::string debugfs_unmounted_reason(Host& host, const SutStatePaths& paths = {});

// "0-3,6,8-9" from CPU numbers (any order, duplicates ignored).
std::string cpu_list_text(std::vector<int> cpus);

}  // namespace schedlab
