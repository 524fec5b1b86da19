#include "runner/knobs/task_policies.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

#include "base/text.h"
#include "runner/hosts/sched_policy.h"
#include "runner/knobs/journal_rows.h"
#include "runner/knobs/knob_write.h"

namespace schedlab {
namespace {

// $1: comm names, one per line; $2: process groups, blank-separated; $3: a
// file with more of them, read at each poll (groups that start later: the
// policy check writes it), or empty; $4: the interval in seconds, empty for
// one poll. One awk per poll reads every task's stat (and comm, unless its
// group is wanted) in BEGIN, so it opens none of its arguments as input and
// a task that exits mid-poll is just skipped. The last ") " of stat ends
// the comm; the process group (field 5) is the third field after it. Each
// poll ends with a line "E".
constexpr const char* kPoller = R"sh(poll() {
  g=$groups
  if [ -n "$file" ]; then g="$g $(cat -- "$file" 2>/dev/null)"; fi
  set -- /proc/[0-9]*/task/[0-9]*
  awk '
function slurp(f,   l) { l = ""; if ((getline l < f) <= 0) l = ""; close(f); return l }
BEGIN {
  n = split(ARGV[1], names, "\n")
  for (i = 1; i <= n; i++) if (names[i] != "") want[names[i]] = 1
  n = split(ARGV[2], gs, " ")
  for (i = 1; i <= n; i++) group[gs[i]] = 1
  for (i = 3; i < ARGC; i++) {
    d = ARGV[i]
    s = slurp(d "/stat")
    if (s == "" || !match(s, /\) [^)]*$/)) continue
    split(substr(s, RSTART + 2), f, " ")
    if (!(f[3] in group)) { c = slurp(d "/comm"); if (!(c in want)) continue }
    pid = d; sub(/^\/proc\//, "", pid); sub(/\/.*/, "", pid)
    print pid, s
  }
  print "E"
}' "$names" "$g" "$@"
}
names=$1
groups=$2
file=$3
if [ -z "$4" ]; then poll; exit; fi
while :; do poll; sleep "$4"; done)sh";

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string proc_task_path(int pid, int tid) {
  return fmt::format("/proc/{}/task/{}", pid, tid);
}

// The task at /proc/PID/task/TID now, or nothing when it is gone.
std::optional<TaskState> read_task(Host& host, int pid, int tid) {
  std::optional<std::string> stat;
  try {
    stat = host.read_file(proc_task_path(pid, tid) + "/stat");
  } catch (const HostError&) {
    return std::nullopt;
  }
  if (!stat) return std::nullopt;
  return parse_task_stat(pid, std::string(trim_end(*stat)));
}

}  // namespace

std::string TaskState::describe() const {
  return fmt::format("{} (pid {}, tid {})", terminal_safe(comm), pid, tid);
}

std::optional<TaskState> parse_task_stat(int pid, const std::string& stat) {
  const auto open = stat.find(" (");
  const auto close = stat.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  TaskState t;
  t.pid = pid;
  const auto tid = to_int(std::string_view(stat).substr(0, open));
  if (!tid) return std::nullopt;
  t.tid = *tid;
  t.comm = stat.substr(open + 2, close - open - 2);
  // Fields 3.. after the comm, one blank between each.
  std::vector<std::string_view> f;
  std::string_view rest = std::string_view(stat).substr(close + 1);
  while (!rest.empty()) {
    rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
    if (rest.empty()) break;
    const auto end = std::min(rest.find(' '), rest.size());
    f.push_back(rest.substr(0, end));
    rest.remove_prefix(end);
  }
  if (f.size() < 41 - 2) return std::nullopt;
  const auto field = [&](int n) { return to_int(f[static_cast<std::size_t>(n - 3)]); };
  const auto ppid = field(4), pgrp = field(5), nice = field(19), policy = field(41);
  if (!ppid || !pgrp || !nice || !policy || !to_int(f[22 - 3])) return std::nullopt;
  t.ppid = *ppid;
  t.pgrp = *pgrp;
  t.nice = *nice;
  t.start = std::string(f[22 - 3]);
  t.policy = *policy;
  return t;
}

std::string group_list(const std::set<int>& pgids) {
  std::string groups;
  for (const int g : pgids) groups += (groups.empty() ? "" : " ") + std::to_string(g);
  return groups;
}

std::vector<std::string> task_stats_argv(const std::vector<std::string>& comms,
                                         const std::set<int>& pgids,
                                         std::optional<std::chrono::milliseconds> interval,
                                         const std::string& groups_file) {
  std::string names;
  for (const auto& c : comms) names += c + "\n";
  const std::string seconds =
      interval ? fmt::format("{}.{:03}", interval->count() / 1000, interval->count() % 1000) : "";
  return {"sh",        "-c",   kPoller, "schedlab-task-stats", names, group_list(pgids),
          groups_file, seconds};
}

std::vector<TaskState> parse_task_stats(const std::string& out) {
  std::vector<TaskState> tasks, poll;
  for (const auto line : split_lines(out)) {
    if (line == "E") {  // a whole poll: its lines count
      tasks.insert(tasks.end(), poll.begin(), poll.end());
      poll.clear();
      continue;
    }
    const auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const auto pid = to_int(line.substr(0, space));
    if (!pid) continue;
    if (auto t = parse_task_stat(*pid, std::string(line.substr(space + 1)))) poll.push_back(*t);
  }
  return tasks;
}

std::vector<TaskState> read_tasks(Host& host, const std::vector<std::string>& comms,
                                  const std::set<int>& pgids) {
  const ExecResult r = host.run({.argv = task_stats_argv(comms, pgids, std::nullopt),
                                 .timeout = std::chrono::seconds(30),
                                 .interruptible = false});
  if (!r.ok())
    throw HostError(fmt::format("{}: reading the tasks' policies failed ({}): {}", host.name(),
                                r.describe(),
                                last_lines(r.err.empty() ? r.spawn_error : r.err, 2)));
  return parse_task_stats(r.out);
}

std::vector<TaskState> tasks_of_groups(const std::vector<TaskState>& all,
                                       const std::set<int>& pgids) {
  // A process's parent, from its main thread's row.
  std::map<int, int> parent;
  for (const auto& t : all)
    if (t.tid == t.pid) parent[t.pid] = t.ppid;
  std::map<int, int> group;  // a process's group, from any of its rows
  for (const auto& t : all) group.emplace(t.pid, t.pgrp);
  const auto ours = [&](int pid) {
    // Up the parent chain among the rows (bounded: a cycle cannot happen,
    // but rows of two polls may disagree).
    for (int hops = 0; hops < 64; ++hops) {
      const auto g = group.find(pid);
      if (g == group.end()) return false;
      if (pgids.contains(g->second)) return true;
      const auto p = parent.find(pid);
      if (p == parent.end() || p->second == pid) return false;
      pid = p->second;
    }
    return false;
  };
  std::vector<TaskState> out;
  for (const auto& t : all)
    if (pgids.contains(t.pgrp) || ours(t.pid)) out.push_back(t);
  return out;
}

void set_task_policy(Host& host, int tid, int policy) {
  const ExecResult r =
      host.run({.argv = {"chrt", chrt_option(policy), "--pid", "0", std::to_string(tid)},
                .timeout = std::chrono::seconds(30),
                .interruptible = false});
  if (!r.ok())
    throw HostError(fmt::format("chrt {} --pid 0 {} on {}: {}", chrt_option(policy), tid,
                                host.name(), last_lines(r.err.empty() ? r.describe() : r.err, 1)));
}

TaskPolicies::~TaskPolicies() {
  try {
    restore();
  } catch (...) {
    // Still journaled: `schedlab restore` or the next run puts them back.
  }
}

std::optional<std::string> TaskPolicies::apply(const std::string& comm, int policy) {
  std::lock_guard lock(knob_write_lock());
  comm_ = comm;
  policy_ = policy;
  const auto named = [&] {
    std::vector<TaskState> out;
    for (auto& t : read_tasks(host_, {comm}, {}))
      if (t.comm == comm) out.push_back(std::move(t));
    return out;
  };
  std::vector<TaskState> tasks = named();
  if (tasks.empty())
    return fmt::format("policy.tasks: no task named '{}' on {} at the iteration's start",
                       terminal_safe(comm), host_.name());
  // Set them all, then look again: a thread created meanwhile by one not
  // yet set did not inherit it.
  constexpr int kRounds = 5;
  for (int round = 0;; ++round) {
    bool changed = false;
    for (const auto& t : tasks) {
      if (t.policy == policy) continue;
      const bool known = std::any_of(applied_.begin(), applied_.end(), [&](const Applied& a) {
        return a.task.tid == t.tid && a.task.start == t.start;
      });
      if (!known)
        applied_.push_back(
            {journal_.journal_applied(
                 stamped({.run_id = run_id_,
                          .kind = kTaskPolicyKind,
                          .name = comm,
                          .path = proc_task_path(t.pid, t.tid),
                          .original = fmt::format("{} {}", sched_policy_name(t.policy), t.start),
                          .target = sched_policy_name(policy)},
                         host_)),
             t});
      try {
        set_task_policy(host_, t.tid, policy);
      } catch (const HostError& e) {
        const auto now = read_task(host_, t.pid, t.tid);
        if (now && now->start == t.start) throw KnobError(e.what());
        continue;  // it exited meanwhile: nothing to set
      }
      changed = true;
    }
    if (!changed) return std::nullopt;
    if (round + 1 == kRounds)
      throw KnobError(
          fmt::format("policy.tasks: threads named '{}' on {} still appear without {} "
                      "after {} rounds of setting them",
                      terminal_safe(comm), host_.name(), sched_policy_name(policy), kRounds));
    tasks = named();
  }
}

void TaskPolicies::restore() {
  if (applied_.empty()) return;
  std::lock_guard lock(knob_write_lock());
  std::vector<std::string> failures;
  std::map<int, int> old_of_process;  // pid -> a policy its threads had (the main thread's first)
  for (auto it = applied_.rbegin(); it != applied_.rend(); ++it) {
    const Applied& a = *it;
    const int old = a.task.policy;
    if (a.task.tid == a.task.pid || !old_of_process.contains(a.task.pid))
      old_of_process[a.task.pid] = old;
    try {
      const auto now = read_task(host_, a.task.pid, a.task.tid);
      if (now && now->start == a.task.start && now->policy != old) {
        set_task_policy(host_, a.task.tid, old);
        const auto after = read_task(host_, a.task.pid, a.task.tid);
        if (after && after->start == a.task.start && after->policy != old)
          throw KnobError(fmt::format("{}: set back to {} but it reads {}", a.task.describe(),
                                      sched_policy_name(old), sched_policy_name(after->policy)));
      }
      journal_.journal_restored(a.entry);
    } catch (const std::exception& e) {
      failures.push_back(e.what());
    }
  }
  // Threads created meanwhile by one that had the policy inherited it: they
  // get what their process's threads had before.
  try {
    for (const auto& t : read_tasks(host_, {comm_}, {})) {
      if (t.comm != comm_ || t.policy != policy_) continue;
      const bool ours = std::any_of(applied_.begin(), applied_.end(), [&](const Applied& a) {
        return a.task.tid == t.tid && a.task.start == t.start;
      });
      const auto old = old_of_process.find(t.pid);
      if (ours || old == old_of_process.end()) continue;
      try {
        set_task_policy(host_, t.tid, old->second);
      } catch (const HostError& e) {
        if (const auto now = read_task(host_, t.pid, t.tid); now && now->start == t.start)
          failures.push_back(e.what());
      }
    }
  } catch (const HostError& e) {
    failures.push_back(e.what());
  }
  applied_.clear();
  if (!failures.empty())
    throw KnobError(fmt::format("could not put back the policy of: {}", fmt::join(failures, "; ")));
}

std::optional<std::string> restore_task_policy_row(Host& host, const JournalEntry& e) {
  // /proc/PID/task/TID and "POLICY START", as TaskPolicies writes them.
  int pid = 0, tid = 0;
  std::string rest;
  {
    std::istringstream path(e.path);
    std::string proc, task;
    std::getline(path, rest, '/');  // empty before the first '/'
    std::getline(path, proc, '/');
    std::string p, t;
    std::getline(path, p, '/');
    std::getline(path, task, '/');
    std::getline(path, t);
    const auto pp = to_int(p), tt = to_int(t);
    if (!rest.empty() || proc != "proc" || task != "task" || !pp || !tt)
      throw KnobError(fmt::format("journal entry {}: {} names '{}', not a task; not written", e.id,
                                  e.kind, e.path));
    pid = *pp;
    tid = *tt;
  }
  const auto blank = e.original.find(' ');
  const auto old = sched_policy_from_kernel_name(e.original.substr(0, blank));
  if (blank == std::string::npos || !old)
    throw KnobError(
        fmt::format("journal entry {}: {} original '{}' is not a policy schedlab "
                    "sets; not written",
                    e.id, e.kind, e.original));
  const std::string start = e.original.substr(blank + 1);
  const auto now = read_task(host, pid, tid);
  if (!now || now->start != start) return std::nullopt;  // gone: nothing to put back
  if (now->policy != *old) set_task_policy(host, tid, *old);
  return fmt::format("restored {} {}: {} -> {} (run {})", e.kind, now->describe(),
                     terminal_safe(excerpt(e.target, 80)), sched_policy_name(*old), e.run_id);
}

}  // namespace schedlab
