// CPU idle-state and frequency residency from sysfs, as `grep -H .` prints
// the files (one "PATH:VALUE" line each; the monitors' script, monitors.cc,
// reads every CPU's files in one command on the SUT):
//   cpuidle  /sys/devices/system/cpu/cpuN/cpuidle/stateM/{name,time,usage}
//            time: microseconds in the state, usage: entries, since boot
//   cpufreq  /sys/devices/system/cpu/cpuN/cpufreq/stats/time_in_state
//            "FREQ_KHZ TIME" lines, TIME in 10 ms units, since boot
// Where the files are absent (no cpuidle driver, no cpufreq: most VMs and
// TCG guests) the monitor is unavailable, reported once.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/counters/monitor_delta.h"
#include "analysis/counters/proc_text.h"

namespace schedlab::residency {

// cpu -> key -> value. cpuidle keys: "STATE.time_us", "STATE.usage" with
// STATE the state's name (spaces as '_': "haltpoll_idle"), falling back to
// "stateM" for a state without a name line; cpufreq keys: "FREQkHz.ms".
using Snapshot = std::map<int, std::map<std::string, double>>;

// Throws CounterParseError (with the line) for a line that is not
// "PATH:VALUE" under the expected tree, or a value that is not a number.
Snapshot parse_cpuidle(std::string_view text);
Snapshot parse_cpufreq(std::string_view text);

// Rows: all.KEY (the sum over CPUs, always) and cpuN.KEY (when not zero),
// after - before. Throws CounterMismatchError when the CPUs or keys differ
// or a value went back.
MonitorDelta delta(const Snapshot& before, const Snapshot& after, std::string_view unit);

}  // namespace schedlab::residency
