#include "runner/monitors/monitor_cpu.h"

#include <time.h>

namespace schedlab {

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
