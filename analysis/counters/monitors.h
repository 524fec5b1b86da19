// Monitors: kernel counter files snapshotted on the SUT before and after each
// iteration, and the delta stored next to the benchmark numbers. This is the
// table the runner walks; each row knows its files and how to diff them.
//
// How the runner wires a monitor (nothing here touches a host or the store):
//
//   const MonitorSpec* m = find_monitor("schedstat");   // names from the config
//   for (auto& [name, value] : m->sysctls)              // set through the knob journal
//     ...apply kernel.sched_schedstats=1, restore at run end...
//   // before the iteration (for pgbench/tbench: before the measured phase)
//   std::vector<std::string> before;                    // one text per m->paths entry
//   for (auto p : m->paths) before.push_back(*host.read_file(std::string(p)));
//   m->check(before);          // throws CounterParseError: report, disable the monitor
//   ... run the iteration ...
//   std::vector<std::string> after = ...same reads...;
//   MonitorDelta d = m->diff(before, after);    // throws CounterParseError/MismatchError
//   // store: raw `before`/`after` texts (always, even when diff throws), d.rows as
//   // (iteration_id, monitor, counter, value), d.json as the monitor's document.
//
// A path the SUT lacks (host.read_file returns nothing) means the monitor is
// unavailable there: report it once and skip it, never fail the run. Raw
// texts are the caller's: the parsers keep no copy.
//
// Rows are flat (counter, value) pairs for SQLite. Names are dotted and
// stable: "all.ttwu_count", "MC.lb_count_newidle", "MC.move_affine_pct",
// "cpu3.ttwu_local", "ctxt", "cpu0.user", "LOC", "LOC.cpu1",
// "memory.some.total_us". Counters absent from a kernel's format and ratios
// with a zero denominator have no row (never a 0). Per-CPU rows are sparse:
// written only when non-zero, so an absent per-CPU row means 0; all-CPU,
// per-level and per-source totals are always written. Values are doubles:
// exact for integer deltas below 2^53.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/counters/monitor_delta.h"

namespace schedlab {

struct MonitorSpec {
  std::string_view name;
  std::string_view description;
  std::vector<std::string_view> paths;  // read in this order; texts are passed in this order
  // sysctl name -> value the monitor needs while it runs (via the knob journal).
  std::vector<std::pair<std::string_view, std::string_view>> sysctls;
  // Parses a snapshot to catch a bad or unsupported file at the first read.
  void (*check)(const std::vector<std::string>& texts);
  MonitorDelta (*diff)(const std::vector<std::string>& before,
                       const std::vector<std::string>& after);
  // Read instead of `paths` on a SUT that lacks them, where an older kernel
  // has the same text elsewhere (sched-debug: /proc/sched_debug before 5.13).
  std::vector<std::string_view> older_paths = {};
  // Files found by a glob (one per CPU and state): a fixed sh script run on
  // the SUT whose output is the snapshot, instead of reading `paths`
  // (which then holds one name for it). No output: the files are absent.
  std::string_view script = {};
};

// The registry: schedstat, stat, interrupts, softirqs, pressure, vmstat,
// sched-debug, cpuidle, cpufreq.
const std::vector<MonitorSpec>& monitors();
// Every monitor a config may name: the registry's, and three that run a
// process on the SUT during the iteration instead of snapshotting a file
// around it: `tasks` (analysis/counters/task_samples.h), `perf-stat`
// (perf_stat.h) and `perf-profile` (perf_profile.h).
std::vector<std::string_view> monitor_names();
// Nothing for an unknown name (callers suggest the nearest with base/suggest.h).
const MonitorSpec* find_monitor(std::string_view name);

}  // namespace schedlab
