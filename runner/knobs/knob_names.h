// The kernel knobs schedlab may write, by name: an allowlist of sysctls
// (the scheduler's, kernel.sched_* and a few others a scheduler experiment
// flips), the scheduler's debugfs tunables (sched/base_slice_ns, ...) and
// scheduler features by their token's shape (the SUT's own list decides
// the rest). Config validation and the journal's restore both refuse any
// other: a journal row is never a way to write some other kernel state.
#pragma once

#include <optional>
#include <string>

namespace schedlab {

// /proc/sys path of a dotted sysctl name.
std::string sysctl_path(const std::string& name);
// Why a sysctl is not one schedlab may write (its name's shape, or not on
// the allowlist), or nothing.
std::optional<std::string> sysctl_name_problem(const std::string& name);
// Debugfs tunables schedlab may write: the scheduler's (sched/...), by name.
std::optional<std::string> debugfs_name_problem(const std::string& name);
// A scheduler feature's token: PLACE_LAG, NO_PLACE_LAG.
std::optional<std::string> feature_name_problem(const std::string& token);

}  // namespace schedlab
