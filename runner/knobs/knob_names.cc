#include "runner/knobs/knob_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>

namespace schedlab {
namespace {

// The sysctl directories a variant may change (see design.md: knobs).
const char* const kSysctlAllowlist[] = {"kernel.", "vm."};
const char* const kSysctlExecDenylist[] = {"kernel.core_pattern", "kernel.modprobe",
                                           "kernel.hotplug", "kernel.poweroff_cmd",
                                           "kernel.usermodehelper"};

}  // namespace

std::optional<std::string> sysctl_name_problem(const std::string& name) {
  static const boost::regex re(R"(^[a-z0-9_]+(\.[a-z0-9_-]+)+$)");
  if (!boost::regex_match(name, re))
    return fmt::format("'{}' is not a sysctl name such as kernel.sched_autogroup_enabled", name);
  // Sysctls that name a program the kernel runs as root are never a
  // scheduler knob; a journal row naming one is refused too (knobs.cc).
  for (const char* exec : kSysctlExecDenylist)
    if (name == exec || name.starts_with(std::string(exec) + "."))
      return fmt::format("'{}' names a program the kernel runs; schedlab never changes it", name);
  for (const char* prefix : kSysctlAllowlist)
    if (name.starts_with(prefix)) return std::nullopt;
  return fmt::format("'{}' is outside the sysctls schedlab may change (kernel.*, vm.*)", name);
}

std::optional<std::string> debugfs_name_problem(const std::string& name) {
  static const boost::regex re(R"(^sched/[a-z0-9_]+(/[a-z0-9_]+)*$)");
  if (!boost::regex_match(name, re))
    return fmt::format(
        "'{}' is not a debugfs scheduler tunable such as sched/base_slice_ns "
        "(only sched/ is writable)",
        name);
  return std::nullopt;
}

std::string sysctl_path(const std::string& name) {
  std::string path = "/proc/sys/" + name;
  std::replace(path.begin() + 10, path.end(), '.', '/');
  return path;
}

}  // namespace schedlab
