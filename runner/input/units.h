// Typed values with units, parsed in one place: durations ("30s", "500ms",
// "2m", "1h", a bare number is seconds) and CPU lists ("0-3,8").
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace schedlab {

// The longest duration a config may give (a timeout, a run length): one week.
// Anything longer is refused rather than wrapping a deadline (steady_clock
// nanoseconds overflow near 292 years; an int of milliseconds at 24 days).
constexpr std::chrono::milliseconds kMaxDuration = std::chrono::hours(168);

// Nothing for text that is no duration or is longer than kMaxDuration.
std::optional<std::chrono::milliseconds> parse_duration(const std::string& text);
std::string format_duration(std::chrono::milliseconds d);

// The kernel's cpulist syntax (taskset -c, /sys/devices/system/cpu/online):
// comma-separated CPUs or ranges "a-b". Sorted, without duplicates; nothing
// for anything else (empty text, "3-1", "x", a CPU above kMaxCpu).
constexpr int kMaxCpu = 8191;
std::optional<std::vector<int>> parse_cpu_list(const std::string& text);
std::string format_cpu_list(const std::vector<int>& cpus);  // {0,1,2,3,8} -> "0-3,8"

}  // namespace schedlab
