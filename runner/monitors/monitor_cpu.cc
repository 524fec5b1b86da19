#include "runner/monitors/monitor_cpu.h"

#include <fmt/format.h>
#include <time.h>

#include <cmath>

#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {

std::optional<std::string> monitor_cpu_problem(std::string_view manifest_json) {
  if (manifest_json.empty()) return std::nullopt;
  const auto m = parse_json_data(manifest_json);
  if (m.is_discarded()) return "its manifest is not JSON (a number past a double, such as 1e999?)";
  if (!m.is_object() || !m.contains("monitor_cpu_s")) return std::nullopt;
  const auto& cpu = m["monitor_cpu_s"];
  if (!cpu.is_object())
    return fmt::format("its manifest's monitor_cpu_s is {}, not an object",
                       terminal_safe(excerpt(cpu.dump(), 60)));
  for (const auto& [monitor, seconds] : cpu.items())
    if (!seconds.is_number() || !(seconds.get<double>() >= 0) ||
        !(seconds.get<double>() <= kMaxMonitorCpuS))
      return fmt::format("its manifest's monitor_cpu_s has {} {}: not CPU seconds in [0, {:g}]",
                         terminal_safe(excerpt(monitor, 60)),
                         terminal_safe(excerpt(seconds.dump(), 60)), kMaxMonitorCpuS);
  return std::nullopt;
}

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

namespace {

// Never throws: a host that cannot say (a lab guest gone) measures nothing.
std::optional<double> reaped_cpu(Host& host) noexcept {
  try {
    return host.reaped_cpu_seconds();
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

MonitorCpu::Scope::Scope(MonitorCpu& meter, std::string monitor)
    : meter_(meter), monitor_(std::move(monitor)), reaped_(reaped_cpu(meter.sut_)) {
  if (reaped_) thread_ = thread_cpu_seconds();
}

MonitorCpu::Scope::~Scope() {
  if (!reaped_) return;
  const double thread = thread_cpu_seconds() - thread_;
  const double reaped = reaped_cpu(meter_.sut_).value_or(*reaped_) - *reaped_;
  meter_.seconds_[monitor_] += thread + reaped;
}

}  // namespace schedlab
