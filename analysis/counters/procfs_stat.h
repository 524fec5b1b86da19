// /proc/stat: CPU times (aggregate and per CPU, in USER_HZ ticks), context
// switches, forks, interrupt and softirq totals, running/blocked tasks.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/counters/proc_text.h"

namespace schedlab::procfs {

// The cpu line columns in kernel order; older kernels print fewer (steal
// since 2.6.11, guest 2.6.24, guest_nice 2.6.33): `fields` says how many.
inline constexpr std::size_t kCpuTimeFields = 10;
std::string_view cpu_time_name(std::size_t i);  // user, nice, system, idle, iowait, ...

struct CpuTimes {
  int cpu = -1;  // -1 for the aggregate "cpu" line
  std::size_t fields = 0;
  std::array<std::uint64_t, kCpuTimeFields> v{};
};

struct Stat {
  CpuTimes total;
  std::vector<CpuTimes> cpus;
  std::uint64_t ctxt = 0;       // context switches since boot
  std::uint64_t processes = 0;  // forks since boot
  std::uint64_t intr = 0;       // first number of the intr line: all interrupts
  std::uint64_t softirq = 0;    // first number of the softirq line
  std::uint64_t btime = 0;      // boot time, epoch seconds
  // Gauges: a delta holds the value after.
  std::uint64_t procs_running = 0;
  std::uint64_t procs_blocked = 0;
};

// Throws CounterParseError for a malformed known line or missing cpu/ctxt
// lines. Unknown keys are skipped: the file grows new keys over time.
Stat parse_stat(std::string_view text);

// after - before. Throws CounterMismatchError when btime differs (a reboot)
// or the CPU lines differ (hotplug).
Stat diff(const Stat& before, const Stat& after);

}  // namespace schedlab::procfs
