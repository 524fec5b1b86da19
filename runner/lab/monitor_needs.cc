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
  // perf-stat's default sched: events are tracepoints, which tinyconfig
  // leaves out. ENABLE_DEFAULT_TRACERS (under the FTRACE menu) selects
  // TRACING, hence TRACEPOINTS and EVENT_TRACING, which perf's tracepoint
  // events need; nothing else in the menu is needed, and UPROBE_EVENTS,
  // on by default there, is left off (measured cost: README.md).
  if (uses(perf_stat::kMonitorName))
    needs.kernel_config.insert(needs.kernel_config.end(), {{"CONFIG_FTRACE", "y"},
                                                           {"CONFIG_ENABLE_DEFAULT_TRACERS", "y"},
                                                           {"CONFIG_UPROBE_EVENTS", "n"}});
  return needs;
}

}  // namespace schedlab::lab
