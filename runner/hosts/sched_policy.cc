#include "runner/hosts/sched_policy.h"

#include <sched.h>

namespace schedlab {

namespace {
struct PolicyName {
  const char* config_name;
  const char* kernel_name;
  int policy;
};
constexpr PolicyName kPolicies[] = {
    {"other", "SCHED_OTHER", SCHED_OTHER},
    {"batch", "SCHED_BATCH", SCHED_BATCH},
    {"idle", "SCHED_IDLE", SCHED_IDLE},
};
}  // namespace

std::optional<int> sched_policy_from_name(const std::string& name) {
  for (const auto& p : kPolicies)
    if (name == p.config_name) return p.policy;
  return std::nullopt;
}

std::string sched_policy_name(int policy) {
  for (const auto& p : kPolicies)
    if (p.policy == policy) return p.kernel_name;
  return "SCHED_" + std::to_string(policy);
}

std::vector<std::string> sched_policy_names() {
  std::vector<std::string> names;
  for (const auto& p : kPolicies) names.emplace_back(p.config_name);
  return names;
}

std::optional<int> sched_policy_from_kernel_name(const std::string& name) {
  for (const auto& p : kPolicies)
    if (name == p.kernel_name) return p.policy;
  return std::nullopt;
}

std::string chrt_option(int policy) {
  if (policy == SCHED_BATCH) return "--batch";
  if (policy == SCHED_IDLE) return "--idle";
  return "--other";
}

std::string SchedPolicy::describe() const {
  std::string s = sched_policy_name(policy);
  if (nice) s += " nice " + std::to_string(*nice);
  return s;
}

}  // namespace schedlab
