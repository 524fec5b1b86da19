// The `policy` knob: the scheduling class (and nice value) the workload's
// processes run under. Applied in the child between fork and exec, so every
// task hackbench forks inherits it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace schedlab {

struct SchedPolicy {
  int policy = 0;  // SCHED_OTHER, SCHED_BATCH or SCHED_IDLE
  std::optional<int> nice;

  std::string describe() const;  // "SCHED_BATCH nice 5"
  bool operator==(const SchedPolicy&) const = default;
};

// "batch" | "idle" | "other" -> policy constant.
std::optional<int> sched_policy_from_name(const std::string& name);
std::string sched_policy_name(int policy);  // SCHED_BATCH
std::vector<std::string> sched_policy_names();
// "SCHED_BATCH" -> policy constant, for the three a config may name.
std::optional<int> sched_policy_from_kernel_name(const std::string& name);
// chrt's option for it: --other, --batch, --idle.
std::string chrt_option(int policy);

}  // namespace schedlab
