// /proc/pressure/{cpu,memory,io}: pressure stall information. `total` is
// cumulative stall time in microseconds (a counter); avg10/60/300 are
// percentages the kernel already averaged (gauges).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "analysis/counters/proc_text.h"

namespace schedlab::procfs {

struct PressureLine {
  double avg10 = 0, avg60 = 0, avg300 = 0;
  std::uint64_t total_us = 0;
};

struct Pressure {
  std::optional<PressureLine> some;
  std::optional<PressureLine> full;  // absent for cpu before Linux 5.13
};

// Throws CounterParseError for a line that is not
// "some|full avg10=X avg60=X avg300=X total=N".
Pressure parse_pressure(std::string_view text);

// total_us becomes after - before; the averages are the values after.
// Throws CounterMismatchError when a line appears or disappears.
Pressure diff(const Pressure& before, const Pressure& after);

}  // namespace schedlab::procfs
