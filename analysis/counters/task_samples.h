// The `tasks` monitor's data: what the task sampler (runner/monitors/task_sampler.h)
// prints on the SUT while an iteration runs, parsed and reduced to
// migrations, switches and a per-CPU histogram per comm.
//
// A workload's processes are short-lived (hackbench's children live well
// under a second), so snapshots around the iteration cannot see them; the
// sampler polls /proc/PID/task/TID/{comm,stat,sched} during it instead. Its
// output, version 1:
//
//   # schedlab-tasks 1                  one per sampler invocation
//   P 11039.69                          a poll starts (/proc/uptime, s)
//   16533 1103968 1 4 12 9 3 hackbench  tid starttime cpu nr_migrations
//                                       nr_switches nr_voluntary_switches
//                                       nr_involuntary_switches comm
//   E                                   the poll is complete
//
// starttime is /proc/PID/stat field 22 (ticks after boot) and tells a reused
// tid apart; cpu is field 39 (the CPU the task last ran on). A counter the
// kernel does not print is "-". comm is the rest of the line (it may hold
// spaces). A poll cut by the sampler being stopped (no "E") is dropped and
// counted; any other malformed line is a CounterParseError with its line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counters/monitors.h"

namespace schedlab::tasks {

inline constexpr std::string_view kMonitorName = "tasks";
inline constexpr int kFormatVersion = 1;

struct TaskSample {
  int tid = 0;
  std::uint64_t starttime = 0;
  int cpu = -1;
  std::optional<std::uint64_t> migrations, switches, voluntary, involuntary;
  std::string comm;
};

struct Poll {
  double uptime_s = 0;
  std::vector<TaskSample> tasks;
};

struct Samples {
  std::vector<Poll> polls;  // complete polls, in order
  std::size_t cut = 0;      // polls dropped because they had no end marker
};

// Throws CounterParseError (1-based line) for a malformed line in a complete
// poll, a task line outside a poll, or another format version.
Samples parse(std::string_view text);

// Per comm, and over all of them.
struct Totals {
  std::size_t tasks = 0;  // distinct tasks (tid, starttime) seen
  // Migrations and switches during the iteration: for a task present in the
  // first poll, last value - first value; for one that appeared later (it
  // started during the iteration), its last value. A lower bound: what a
  // task does after its last sample is not seen. Empty when the kernel
  // prints no such counter.
  std::optional<double> migrations, switches, voluntary, involuntary;
  std::map<int, std::uint64_t> cpu_hits;  // CPU -> samples that found a task on it
  std::uint64_t samples() const;
};

struct Reduction {
  std::size_t polls = 0;
  std::size_t cut = 0;
  Totals all;
  std::map<std::string, Totals> by_comm;
};

// Throws CounterMismatchError when a task's counter goes backwards.
Reduction reduce(const Samples& s);

// Flat rows for the store: "polls", "tasks", "migrations", "switches",
// "voluntary_switches", "involuntary_switches", "samples", "cpu_hits.<cpu>",
// and the same per comm under "comm.<comm>." ("comm.hackbench.migrations").
// Counters the kernel lacks have no row; cpu_hits rows exist for CPUs hit.
MonitorDelta delta(const Reduction& r);

// "#0:417 #1:583": CPUs in order with their sample counts.
std::string format_cpu_hits(const std::map<int, std::uint64_t>& hits);

}  // namespace schedlab::tasks
