#include "analysis/procfs_task.h"

#include <fmt/format.h>

#include <unordered_map>

#include "base/text.h"

namespace schedlab::procfs {
namespace {

// Suffixes of the /proc/PID/sched keys that only grow.
constexpr std::string_view kCumulative[] = {"sum_exec_runtime",
                                            "nr_migrations",
                                            "nr_switches",
                                            "nr_voluntary_switches",
                                            "nr_involuntary_switches",
                                            "sum_sleep_runtime",
                                            "sum_block_runtime",
                                            "wait_sum",
                                            "wait_count",
                                            "iowait_sum",
                                            "iowait_count",
                                            "nr_migrations_cold",
                                            "nr_failed_migrations_affine",
                                            "nr_failed_migrations_running",
                                            "nr_failed_migrations_hot",
                                            "nr_forced_migrations",
                                            "nr_wakeups",
                                            "nr_wakeups_sync",
                                            "nr_wakeups_migrate",
                                            "nr_wakeups_local",
                                            "nr_wakeups_remote",
                                            "nr_wakeups_affine",
                                            "nr_wakeups_affine_attempts",
                                            "nr_wakeups_passive",
                                            "nr_wakeups_idle",
                                            "core_forceidle_sum",
                                            "numa_pages_migrated",
                                            "total_numa_faults"};

}  // namespace

std::optional<double> TaskSched::get(std::string_view key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return v;
  return std::nullopt;
}

bool is_cumulative_sched_key(std::string_view key) {
  const auto dot = key.rfind('.');
  const auto last = dot == std::string_view::npos ? key : key.substr(dot + 1);
  for (auto k : kCumulative)
    if (k == last) return true;
  return false;
}

TaskSched parse_task_sched(std::string_view text) {
  TaskSched s;
  const auto lines = split_lines(text);
  if (lines.empty()) throw CounterParseError(0, "empty /proc/PID/sched text");
  // "hackbench (16165, #threads: 1)"; comm may contain " (".
  const std::string_view head = lines[0];
  const auto open = head.rfind(" (");
  const auto hash = head.find(", #threads: ", open == std::string_view::npos ? 0 : open);
  std::uint64_t pid = 0, threads = 0;
  if (open == std::string_view::npos || hash == std::string_view::npos || !head.ends_with(")") ||
      !parse_u64(head.substr(open + 2, hash - open - 2), pid) ||
      !parse_u64(head.substr(hash + 12, head.size() - hash - 13), threads))
    throw CounterParseError(1, fmt::format("expected 'COMM (PID, #threads: N)', found '{}'", head));
  s.comm = std::string(head.substr(0, open));
  s.pid = static_cast<int>(pid);
  s.threads = static_cast<int>(threads);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = trim(lines[i]);
    if (line.empty() || line.find_first_not_of('-') == std::string_view::npos) continue;
    const auto colon = line.find(" : ");
    if (colon == std::string_view::npos) {
      s.other.emplace_back(line);
      continue;
    }
    double v = 0;
    const std::string_view key = trim(line.substr(0, colon));
    if (!parse_double(trim(line.substr(colon + 3)), v))
      throw CounterParseError(
          i + 1, fmt::format("{}: '{}' is not a number", key, trim(line.substr(colon + 3))));
    s.fields.emplace_back(std::string(key), v);
  }
  return s;
}

TaskSched diff(const TaskSched& before, const TaskSched& after) {
  if (before.pid != after.pid)
    throw CounterMismatchError(
        fmt::format("/proc/PID/sched of pid {} vs pid {}", before.pid, after.pid));
  std::unordered_map<std::string_view, double> old;
  for (const auto& [k, v] : before.fields) old.emplace(k, v);
  TaskSched d = after;
  d.fields.clear();
  for (const auto& [k, v] : after.fields) {
    const auto it = old.find(k);
    if (it == old.end()) continue;
    d.fields.emplace_back(k, is_cumulative_sched_key(k) ? v - it->second : v);
  }
  return d;
}

TaskStat parse_task_stat(std::string_view text) {
  const auto lines = split_lines(text);
  const std::string_view line = trim(lines.empty() ? text : lines[0]);
  const auto open = line.find(" (");
  const auto close = line.rfind(") ");
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    throw CounterParseError(1, "expected 'PID (COMM) STATE ...' in /proc/PID/stat");
  TaskStat s;
  s.pid = static_cast<int>(parse_u64_or_throw(line.substr(0, open), 1, "pid"));
  s.comm = std::string(line.substr(open + 2, close - open - 2));
  const auto t = split_ws(line.substr(close + 2));  // t[0] is field 3
  if (t.size() < 39)
    throw CounterParseError(
        1, fmt::format("/proc/PID/stat has {} fields; expected at least 41", t.size() + 2));
  auto u = [&](int field) {
    return parse_u64_or_throw(t[field - 3], 1, fmt::format("stat field {}", field));
  };
  auto i64 = [&](int field) {
    double v = 0;
    if (!parse_double(t[field - 3], v))
      throw CounterParseError(
          1, fmt::format("stat field {}: '{}' is not a number", field, t[field - 3]));
    return static_cast<std::int64_t>(v);
  };
  if (t[0].size() != 1) throw CounterParseError(1, fmt::format("stat state '{}'", t[0]));
  s.state = t[0][0];
  s.ppid = static_cast<int>(i64(4));
  s.minflt = u(10);
  s.majflt = u(12);
  s.utime = u(14);
  s.stime = u(15);
  s.priority = i64(18);
  s.nice = i64(19);
  s.num_threads = i64(20);
  s.starttime = u(22);
  s.processor = static_cast<int>(i64(39));
  s.rt_priority = u(40);
  s.policy = u(41);
  return s;
}

TaskStat diff(const TaskStat& before, const TaskStat& after) {
  if (before.pid != after.pid || before.starttime != after.starttime)
    throw CounterMismatchError(
        fmt::format("/proc/PID/stat of another task (pid {} started at {} "
                    "vs pid {} started at {})",
                    before.pid, before.starttime, after.pid, after.starttime));
  TaskStat d = after;
  d.minflt = counter_delta(before.minflt, after.minflt, 64, "minflt");
  d.majflt = counter_delta(before.majflt, after.majflt, 64, "majflt");
  d.utime = counter_delta(before.utime, after.utime, 64, "utime");
  d.stime = counter_delta(before.stime, after.stime, 64, "stime");
  return d;
}

}  // namespace schedlab::procfs
