// One task's scheduler view: /proc/PID/sched (a "key : value" table whose
// keys depend on the kernel config) and /proc/PID/stat (one line). These
// read a workload's own processes: migrations, switches, last CPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/proc_text.h"

namespace schedlab::procfs {

struct TaskSched {
  std::string comm;
  int pid = 0;
  int threads = 0;
  // Every "key : value" in printed order, e.g. {"se.nr_migrations", 20}.
  // Times are in ms as printed (se.sum_exec_runtime : 14.582029).
  std::vector<std::pair<std::string, double>> fields;
  // Lines of another shape (NUMA: "current_node=0, numa_group_id=0"), kept.
  std::vector<std::string> other;
  std::optional<double> get(std::string_view key) const;
};

// Throws CounterParseError when the "comm (pid, #threads: N)" header is
// missing or a "key : value" line has no number.
TaskSched parse_task_sched(std::string_view text);

// Whether a /proc/PID/sched key accumulates (nr_migrations, nr_switches,
// sum_exec_runtime, wait_sum, nr_wakeups*, ...) rather than being a state
// (vruntime, load averages, prio). Decided on the last dotted component, so
// "se.statistics.wait_sum" (older kernels) and "wait_sum" both count.
bool is_cumulative_sched_key(std::string_view key);

// Cumulative fields become after - before, the others keep the value after;
// fields present on one side only are dropped. Throws CounterMismatchError
// for another pid.
TaskSched diff(const TaskSched& before, const TaskSched& after);

// /proc/PID/stat, the fields a scheduler study reads (proc(5) numbering).
struct TaskStat {
  int pid = 0;
  std::string comm;                           // (2), may contain spaces and parentheses
  char state = '?';                           // (3)
  int ppid = 0;                               // (4)
  std::uint64_t minflt = 0, majflt = 0;       // (10), (12)
  std::uint64_t utime = 0, stime = 0;         // (14), (15) clock ticks
  std::int64_t priority = 0, nice = 0;        // (18), (19)
  std::int64_t num_threads = 0;               // (20)
  std::uint64_t starttime = 0;                // (22) ticks after boot: tells pid reuse apart
  int processor = -1;                         // (39) CPU last run on
  std::uint64_t rt_priority = 0, policy = 0;  // (40), (41)
};

// Throws CounterParseError when the line is not "pid (comm) state ..." with
// at least 41 fields.
TaskStat parse_task_stat(std::string_view text);

// minflt, majflt, utime, stime become after - before; the rest is the value
// after. Throws CounterMismatchError for another task (pid or starttime).
TaskStat diff(const TaskStat& before, const TaskStat& after);

}  // namespace schedlab::procfs
