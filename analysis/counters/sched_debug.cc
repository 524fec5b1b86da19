#include "analysis/counters/sched_debug.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace schedlab::sched_debug {
namespace {

// The lines kept, as Cpu::values keys, and whether each counts events
// (stored as a delta) or is a level (stored as the value after). Clocks,
// vruntimes and deadlines are left out: they only grow with time, so two
// runs would always differ in them and say nothing.
struct Kept {
  std::string_view key;
  bool counter;
};
constexpr Kept kKept[] = {
    {"nr_running", false},
    {"nr_switches", true},
    {"nr_uninterruptible", false},
    {"avg_idle", false},
    {"sched_count", true},
    {"sched_goidle", true},
    {"ttwu_count", true},
    {"ttwu_local", true},
    {"yld_count", true},
    {"cfs.nr_running", false},
    {"cfs.nr_queued", false},
    {"cfs.h_nr_running", false},
    {"cfs.h_nr_queued", false},
    {"cfs.h_nr_runnable", false},
    {"cfs.h_nr_idle", false},
    {"cfs.idle_nr_running", false},
    {"cfs.idle_h_nr_running", false},
    {"cfs.load", false},
    {"cfs.load_avg", false},
    {"cfs.runnable_avg", false},
    {"cfs.util_avg", false},
    {"cfs.util_est", false},
    {"cfs.util_est_enqueued", false},
    {"cfs.exec_clock", true},
    {"cfs.nr_spread_over", true},
    {"rt.rt_nr_running", false},
    {"rt.rt_throttled", false},
    {"dl.dl_nr_running", false},
};

const Kept* kept(std::string_view key) {
  for (const auto& k : kKept)
    if (k.key == key) return &k;
  return nullptr;
}

// Which block a header line opens: the key prefix for its lines, or
// nothing for a block that is skipped. Sets `cpu` for a cpu#N line.
enum class Block { kNone, kCpu, kCfs, kRt, kDl, kSkip };

Block block_of(std::string_view line, int& cpu) {
  auto number_after = [&](std::string_view prefix, char end) {
    const auto close = line.find(end, prefix.size());
    std::uint64_t n = 0;
    if (close == std::string_view::npos ||
        !parse_u64(line.substr(prefix.size(), close - prefix.size()), n) || n > 1u << 20)
      return -1;
    return static_cast<int>(n);
  };
  if (line.starts_with("cpu#")) {
    const auto comma = line.find(',');
    std::uint64_t n = 0;
    if (!parse_u64(line.substr(4, comma == std::string_view::npos ? line.npos : comma - 4), n) ||
        n > 1u << 20)
      return Block::kNone;
    cpu = static_cast<int>(n);
    return Block::kCpu;
  }
  // The root group's run queue is "cfs_rq[N]:/" with group scheduling and
  // "cfs_rq[N]:" without (CONFIG_FAIR_GROUP_SCHED, CONFIG_RT_GROUP_SCHED:
  // Debian's kernels and Linux 5.4 print "rt_rq[N]:"); a task group's names
  // its path.
  const auto root = [&](std::string_view prefix) {
    return number_after(prefix, ']') == cpu && (line.ends_with("]:/") || line.ends_with("]:"));
  };
  if (line.starts_with("cfs_rq[")) return root("cfs_rq[") ? Block::kCfs : Block::kSkip;
  if (line.starts_with("rt_rq[")) return root("rt_rq[") ? Block::kRt : Block::kSkip;
  if (line.starts_with("dl_rq["))
    return number_after("dl_rq[", ']') == cpu ? Block::kDl : Block::kSkip;
  return Block::kSkip;
}

constexpr std::string_view prefix_of(Block b) {
  switch (b) {
    case Block::kCfs:
      return "cfs.";
    case Block::kRt:
      return "rt.";
    case Block::kDl:
      return "dl.";
    default:
      return "";
  }
}

}  // namespace

bool is_counter(std::string_view key) {
  const Kept* k = kept(key);
  return k && k->counter;
}

Snapshot parse(std::string_view text) {
  Snapshot s;
  const auto lines = split_lines(text);
  if (lines.empty() || !lines[0].starts_with("Sched Debug Version:"))
    throw CounterParseError(1, "no 'Sched Debug Version:' line: not a sched debug file");
  Block block = Block::kNone;
  int cpu = -1;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.empty()) continue;
    if (line[0] != ' ' && line[0] != '\t') {
      int next = cpu;
      block = block_of(line, next);
      if (block == Block::kCpu) {
        if (std::any_of(s.cpus.begin(), s.cpus.end(), [&](const Cpu& c) { return c.cpu == next; }))
          throw CounterParseError(i + 1, fmt::format("cpu#{} is given twice", next));
        cpu = next;
        s.cpus.push_back({cpu, {}});
      } else if (s.cpus.empty()) {
        block = Block::kNone;
      }
      if (line.starts_with("runnable tasks:")) block = Block::kSkip;
      continue;
    }
    if (block == Block::kNone || block == Block::kSkip) continue;
    const auto colon = line.find(':');
    std::string_view key = line.substr(0, colon);
    while (!key.empty() && (key.front() == ' ' || key.front() == '\t')) key.remove_prefix(1);
    while (!key.empty() && key.back() == ' ') key.remove_suffix(1);
    if (colon == std::string_view::npos || !key.starts_with('.'))
      throw CounterParseError(i + 1, fmt::format("expected '.key : value', found '{}'", line));
    key.remove_prefix(1);
    const auto t = split_ws(line.substr(colon + 1));
    double v = 0;
    const std::string name = std::string(prefix_of(block)) + std::string(key);
    if (!kept(name)) continue;
    if (t.empty() || !parse_double(t[0], v))
      throw CounterParseError(i + 1,
                              fmt::format(".{}: '{}' is not a number", key, t.empty() ? "" : t[0]));
    s.cpus.back().values[name] = v;
  }
  if (s.cpus.empty()) throw CounterParseError(0, "no cpu#N block: not a sched debug file");
  return s;
}

MonitorDelta delta(const Snapshot& before, const Snapshot& after) {
  if (before.cpus.size() != after.cpus.size())
    throw CounterMismatchError(fmt::format("sched debug lists {} CPUs before and {} after",
                                           before.cpus.size(), after.cpus.size()));
  MonitorDelta out;
  std::map<std::string, double> all;
  std::vector<CounterRow> per_cpu;
  nlohmann::json cpus = nlohmann::json::array();
  for (std::size_t c = 0; c < after.cpus.size(); ++c) {
    const Cpu& a = after.cpus[c];
    const Cpu& b = before.cpus[c];
    if (a.cpu != b.cpu)
      throw CounterMismatchError(
          fmt::format("sched debug CPU {} before is CPU {} after", b.cpu, a.cpu));
    // A line the snapshot before had and the one after has not: a cut
    // file (a read that stopped early), not a zero.
    for (const auto& [key, value] : b.values)
      if (!a.values.count(key))
        throw CounterMismatchError(
            fmt::format("sched debug cpu#{} .{} is in the snapshot before, not after", a.cpu, key));
    nlohmann::json j = {{"cpu", a.cpu}};
    for (const auto& [key, value] : a.values) {
      double v = value;
      if (is_counter(key)) {
        const auto it = b.values.find(key);
        if (it == b.values.end())
          throw CounterMismatchError(fmt::format("sched debug cpu#{} .{} appeared", a.cpu, key));
        if (value < it->second)
          throw CounterMismatchError(fmt::format("sched debug cpu#{} .{} went backwards ({} -> {})",
                                                 a.cpu, key, it->second, value));
        v = value - it->second;
      }
      all[key] += v;
      j[key] = v;
      if (v != 0) per_cpu.push_back({fmt::format("cpu{}.{}", a.cpu, key), v});
    }
    cpus.push_back(std::move(j));
  }
  for (const auto& [key, v] : all) out.rows.push_back({"all." + key, v});
  out.rows.insert(out.rows.end(), per_cpu.begin(), per_cpu.end());
  out.json["all"] = all;
  out.json["cpus"] = std::move(cpus);
  out.json["unit"] =
      "counters (nr_switches, exec_clock, ...) as deltas; the rest as the values after";
  return out;
}

}  // namespace schedlab::sched_debug
