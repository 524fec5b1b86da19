// What a run's monitors need of a lab guest. perf-stat and perf-profile run
// perf in the guest: this machine's perf (Debian's linux-perf, 6.1 on
// bookworm), copied into the initramfs with its libraries like the
// workloads' programs; it works across kernel versions (measured on
// Debian's 6.1 and 6.12 and a 6.1 tree built by schedlab: README.md).
// perf-profile resolves kernel symbols from the guest's /proc/kallsyms (the
// init sets kptr_restrict=0), which a kernel built from source has only
// with CONFIG_KALLSYMS: it is added to such a kernel's config. perf-stat's
// sched: events need tracepoints, which such a kernel has only with
// CONFIG_FTRACE and CONFIG_ENABLE_DEFAULT_TRACERS: added for perf-stat.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace schedlab::lab {

struct MonitorNeeds {
  std::vector<std::string> programs;  // found on this machine's PATH; missing ones reported
  std::vector<std::pair<std::string, std::string>> kernel_config;  // for a built kernel
};

// Nothing for monitors that only read files (schedstat, sched-debug, ...).
MonitorNeeds monitor_needs(const std::vector<std::string>& monitors);

}  // namespace schedlab::lab
