// The perf-stat monitor's output: `perf stat -a -x,` over an iteration's
// measured steps. One CSV line per event (perf's tools/perf/Documentation/
// perf-stat.txt, "CSV FORMAT"): value, unit, event, run time, share of the
// run time counted, then an optional metric value and unit; '#' lines and
// blank lines are comments. The value is "<not supported>" for an event the
// machine cannot count (cycles without a PMU: a TCG guest, most VMs) and
// "<not counted>" for one that never ran.
//
// An event name may itself hold commas (cpu/event=0x3c,umask=0x0/): the
// fields are taken from both ends and the event is what lies between.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counters/monitor_delta.h"
#include "analysis/counters/proc_text.h"

namespace schedlab::perf_stat {

inline constexpr std::string_view kMonitorName = "perf-stat";

// The events counted when the config names none. cycles and instructions
// need a PMU: where there is none they are reported once and left out.
const std::vector<std::string>& default_events();

struct Event {
  std::string name;
  std::optional<double> value;  // nothing when not supported or not counted
  std::string unit;             // "msec" for task-clock, else empty
  std::string status;           // "counted", "not supported", "not counted"
};

// Throws CounterParseError (with the line) for a line that is not perf's CSV.
std::vector<Event> parse(std::string_view text);

// One row per counted event: its name and count over the iteration
// (task-clock in msec, as perf prints it). Events without a value have no
// row; the JSON lists them under "not_counted".
MonitorDelta delta(const std::vector<Event>& events);

// perf's argv (after "perf") for these events: `stat -a -x, -e A,B,...`.
std::vector<std::string> stat_args(const std::vector<std::string>& events);

}  // namespace schedlab::perf_stat
