// The kernel knobs schedlab may write, by name: the sysctls (kernel.*, vm.*,
// never one naming a program the kernel runs) and the debugfs scheduler
// tunables (sched/...). Config validation and the journal's restore both
// refuse any other.
#pragma once

#include <optional>
#include <string>

namespace schedlab {

// /proc/sys path of a dotted sysctl name, or an error message when the name
// is outside the directories schedlab may write.
std::string sysctl_path(const std::string& name);
std::optional<std::string> sysctl_name_problem(const std::string& name);
// Debugfs tunables schedlab may write: sched/<name>, no "..".
std::optional<std::string> debugfs_name_problem(const std::string& name);

}  // namespace schedlab
