#include "runner/knobs/knob_names.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <string_view>

#include "base/text.h"

namespace schedlab {
namespace {

// The sysctls a variant may set, and so the only ones a journal row may
// name (an allowlist: a crafted row naming kernel.randomize_va_space or
// vm.mmap_min_addr is refused, whatever the kernel would take). The
// scheduler's own (kernel.sched_*, NUMA balancing, timer migration) and
// the few others scheduler experiments flip: vm.stat_interval (vmstat's
// per-CPU work), vm.swappiness, and kernel.msgmax (per IPC namespace: what
// the Slurm tests change on their nodes without touching the host).
struct SysctlRule {
  std::string_view name;
  bool prefix;  // every sysctl whose name starts with `name`
};
constexpr SysctlRule kSysctls[] = {
    {"kernel.sched_", true},          {"kernel.numa_balancing", false},
    {"kernel.numa_balancing_", true}, {"kernel.timer_migration", false},
    {"kernel.msgmax", false},         {"vm.stat_interval", false},
    {"vm.swappiness", false},
};

// The scheduler's debugfs tunables (kernel/sched/debug.c, sched_init_debug;
// the NUMA ones in Documentation/scheduler/sched-debug.rst), with those of
// kernels before EEVDF (5.13 to 6.5). features is its own kind; debug and
// domains/ are read-only or per-domain dumps.
constexpr std::string_view kDebugfsTunables[] = {
    "sched/base_slice_ns",
    "sched/migration_cost_ns",
    "sched/nr_migrate",
    "sched/latency_warn_ms",
    "sched/latency_warn_once",
    "sched/preempt",
    "sched/tunable_scaling",
    "sched/verbose",
    "sched/latency_ns",
    "sched/min_granularity_ns",
    "sched/idle_min_granularity_ns",
    "sched/wakeup_granularity_ns",
    "sched/numa_balancing/scan_delay_ms",
    "sched/numa_balancing/scan_period_min_ms",
    "sched/numa_balancing/scan_period_max_ms",
    "sched/numa_balancing/scan_size_mb",
    "sched/numa_balancing/hot_threshold_ms",
};

std::string allowed_sysctls() {
  std::string out;
  for (const auto& r : kSysctls) {
    out += fmt::format("{}{}{}", out.empty() ? "" : ", ", r.name, r.prefix ? "*" : "");
  }
  return out;
}

}  // namespace

std::optional<std::string> sysctl_name_problem(const std::string& name) {
  static const boost::regex re(R"(^[a-z0-9_]+(\.[a-z0-9_-]+)+$)");
  if (!boost::regex_match(name, re))
    return fmt::format("'{}' is not a sysctl name such as kernel.sched_autogroup_enabled",
                       excerpt(name, 80));
  for (const auto& r : kSysctls)
    if (r.prefix ? name.starts_with(r.name) && name.size() > r.name.size() : name == r.name)
      return std::nullopt;
  return fmt::format("'{}' is not a sysctl schedlab may change ({})", excerpt(name, 80),
                     allowed_sysctls());
}

std::optional<std::string> debugfs_name_problem(const std::string& name) {
  static const boost::regex re(R"(^sched/[a-z0-9_]+(/[a-z0-9_]+)*$)");
  if (!boost::regex_match(name, re))
    return fmt::format(
        "'{}' is not a debugfs scheduler tunable such as sched/base_slice_ns "
        "(only sched/ is writable)",
        excerpt(name, 80));
  if (std::find(std::begin(kDebugfsTunables), std::end(kDebugfsTunables), name) ==
      std::end(kDebugfsTunables))
    return fmt::format("'{}' is not a debugfs scheduler tunable schedlab may change ({})",
                       excerpt(name, 80), fmt::join(kDebugfsTunables, ", "));
  return std::nullopt;
}

std::optional<std::string> feature_name_problem(const std::string& token) {
  static const boost::regex re(R"(^[A-Z][A-Z0-9_]*$)");
  if (!boost::regex_match(token, re))
    return fmt::format("'{}' is not a feature name such as NO_PLACE_LAG", excerpt(token, 80));
  return std::nullopt;
}

std::string sysctl_path(const std::string& name) {
  std::string path = "/proc/sys/" + name;
  std::replace(path.begin() + 10, path.end(), '.', '/');
  return path;
}

}  // namespace schedlab
