// What the monitors cost in CPU on a SUT that is this machine: per monitor,
// the user+sys seconds of schedlab's own thread while it works for that
// monitor (reading and parsing snapshots, starting and stopping perf,
// waiting for them) plus those of the processes the monitor ran, reaped
// meanwhile (perf, its helper shells, the task sampler and what it ran).
// The run's manifest keeps the sums ("monitor_cpu_s"); bench/
// monitor_overhead_bench.sh reads them. Robust where wall-clock A/B runs
// are not: CPU time does not depend on other load or idle CPUs.
//
// Not in it: what a monitor costs inside the kernel, charged to the
// workload's own tasks (schedstats accounting on every wake-up, perf
// counting a tracepoint on every context switch), which only the A/B
// comparison of the metric shows; and storing the snapshots, which the
// iteration's transaction does later. On a remote SUT (SSH, a lab guest)
// the processes use that machine's CPU, which is not known here: nothing
// is measured.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "runner/hosts/host.h"

namespace schedlab {

class MonitorCpu {
 public:
  explicit MonitorCpu(Host& sut) : sut_(sut) {}

  // While it lives, what the calling thread and the SUT's reaped processes
  // use is the monitor's.
  class Scope {
   public:
    Scope(MonitorCpu& meter, std::string monitor);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    MonitorCpu& meter_;
    std::string monitor_;
    std::optional<double> reaped_;  // nothing: not measurable on this SUT
    double thread_ = 0;
  };
  [[nodiscard]] Scope measure(std::string monitor) { return Scope(*this, std::move(monitor)); }

  // monitor -> CPU seconds since the last take(); empty on a SUT that is
  // not this machine.
  std::map<std::string, double> take() { return std::exchange(seconds_, {}); }

 private:
  Host& sut_;
  std::map<std::string, double> seconds_;
};

// The calling thread's CPU time (user+sys) in seconds.
double thread_cpu_seconds();

// Past this many seconds a stored sum is no CPU time (31,000 years), and
// one more run's seconds, rounded to microseconds, could overflow to inf,
// which the manifest would store as null.
inline constexpr double kMaxMonitorCpuS = 1e12;

// Why a run's manifest (its JSON text) cannot take more monitor CPU time:
// not JSON, or its "monitor_cpu_s" not an object of finite numbers in
// [0, kMaxMonitorCpuS]; nothing when it can (absent is fine). Merge and
// resume refuse such a run rather than drop or overflow its sums.
std::optional<std::string> monitor_cpu_problem(std::string_view manifest_json);

}  // namespace schedlab
