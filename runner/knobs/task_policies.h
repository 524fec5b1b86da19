// The scheduling policy of tasks (threads) on a host, read from
// /proc/PID/task/TID/stat and set with chrt through the Host (local, SSH and
// lab alike): what the run's policy check reads (runner/run/policy_check.h)
// and how `policy: {tasks: {comm: NAME, policy: P}}` sets the threads of a
// server schedlab does not start, journaled (kind "task_policy") and put
// back at the iteration's end, by `schedlab restore` after a crash.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "results/knob_journal_table.h"
#include "runner/hosts/host.h"

namespace schedlab {

inline constexpr const char* kTaskPolicyKind = "task_policy";

// One task as its stat line shows it.
struct TaskState {
  int pid = 0;  // the process (thread group) it belongs to
  int tid = 0;  // field 1
  std::string comm;
  int ppid = 0;       // field 4
  int pgrp = 0;       // field 5
  int nice = 0;       // field 19
  std::string start;  // field 22: clock ticks since boot (a reused TID differs)
  int policy = 0;     // field 41: SCHED_OTHER 0, SCHED_BATCH 3, SCHED_IDLE 5, ...

  // "tbench_srv (pid 812, tid 815)"
  std::string describe() const;
};

// One /proc/PID/task/TID/stat line of a task of process `pid`. The comm may
// hold blanks and parentheses: the fields are read after its last ')'.
// Nothing when the line is not a stat line of at least 41 fields.
std::optional<TaskState> parse_task_stat(int pid, const std::string& stat);

// A program (POSIX sh + awk, busybox is enough) printing "PID STATLINE" for
// every task whose comm is one of `comms` (as the kernel keeps them: 15
// bytes) or whose process group is one of `pgids` or listed in
// `groups_file` (blank-separated, read at each poll; none when empty); a
// poll every `interval` until stopped, or one poll when empty, each ending
// with a line "E". Names, groups and the file reach it as argv elements,
// never as shell text.
std::vector<std::string> task_stats_argv(const std::vector<std::string>& comms,
                                         const std::set<int>& pgids,
                                         std::optional<std::chrono::milliseconds> interval,
                                         const std::string& groups_file = "");
// "12 40" for a groups file.
std::string group_list(const std::set<int>& pgids);
// The tasks in such output, poll after poll (lines that do not parse are
// skipped: a task that exited mid-read).
std::vector<TaskState> parse_task_stats(const std::string& out);
// One poll on HOST. Throws HostError when the program fails there.
std::vector<TaskState> read_tasks(Host& host, const std::vector<std::string>& comms,
                                  const std::set<int>& pgids);

// The tasks of `all` in one of the process groups `pgids`, or whose parent
// process is (transitively) such a task: a server's children that made a
// group or session of their own (PostgreSQL's backends call setsid).
std::vector<TaskState> tasks_of_groups(const std::vector<TaskState>& all,
                                       const std::set<int>& pgids);

// Sets one task's policy (keeping its nice value): `chrt --POLICY --pid 0
// TID`. Throws HostError with chrt's reason.
void set_task_policy(Host& host, int tid, int policy);

// The threads named `comm` on a host set to `policy`, each journaled first
// with its old policy (kind "task_policy": name the comm, path
// /proc/PID/task/TID, original "POLICY START", target the policy), and put
// back by restore() (or the destructor, never throwing) when they still run
// (same start time). Threads created meanwhile by a thread that had the
// policy inherit it; restore() gives them their process's old policy.
class TaskPolicies {
 public:
  TaskPolicies(KnobJournalTable& journal, Host& host, std::int64_t run_id)
      : journal_(journal), host_(host), run_id_(run_id) {}
  ~TaskPolicies();
  TaskPolicies(const TaskPolicies&) = delete;
  TaskPolicies& operator=(const TaskPolicies&) = delete;

  // Sets every thread named `comm`, then reads them again and sets any a
  // thread created meanwhile (a few rounds, until a read finds all set).
  // Returns an error (nothing set, nothing journaled) when no task has the
  // name; throws HostError/KnobError when a thread cannot be set or keeps
  // appearing without it.
  std::optional<std::string> apply(const std::string& comm, int policy);
  // Puts back every thread set; throws KnobError naming those it could not.
  void restore();

 private:
  struct Applied {
    std::int64_t entry = 0;
    TaskState task;  // as found (its old policy)
  };
  KnobJournalTable& journal_;
  Host& host_;
  std::int64_t run_id_;
  std::string comm_;
  int policy_ = 0;
  std::vector<Applied> applied_;
};

// `schedlab restore`'s part for a task_policy row of a run that died: the
// thread set back when it still runs (same start time); the line to print,
// or nothing when the thread is gone. Throws KnobError on a row that is
// not one schedlab writes.
std::optional<std::string> restore_task_policy_row(Host& host, const JournalEntry& e);

}  // namespace schedlab
