#include "runner/lab/monitor_needs.h"

#include <algorithm>

#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"

namespace schedlab::lab {

MonitorNeeds monitor_needs(const std::vector<std::string>& monitors) {
  const auto uses = [&](std::string_view name) {
    return std::find(monitors.begin(), monitors.end(), name) != monitors.end();
  };
  MonitorNeeds needs;
  const bool profile = uses(perf_profile::kMonitorName);
  if (profile || uses(perf_stat::kMonitorName)) needs.programs.push_back("perf");
  if (profile) needs.kernel_config.push_back({"CONFIG_KALLSYMS", "y"});
  return needs;
}

}  // namespace schedlab::lab
