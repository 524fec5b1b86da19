#include "analysis/counters/procfs_stat.h"

#include <fmt/format.h>

namespace schedlab::procfs {
namespace {

constexpr std::string_view kNames[kCpuTimeFields] = {
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice"};

CpuTimes parse_cpu(const std::vector<std::string_view>& t, std::size_t line) {
  CpuTimes c;
  if (t[0].size() > 3)
    c.cpu = static_cast<int>(parse_u64_or_throw(t[0].substr(3), line, "cpu number"));
  if (t.size() < 5 || t.size() > kCpuTimeFields + 1)
    throw CounterParseError(
        line, fmt::format("{} has {} times; expected 4 to {}", t[0], t.size() - 1, kCpuTimeFields));
  c.fields = t.size() - 1;
  for (std::size_t i = 0; i < c.fields; ++i)
    c.v[i] = parse_u64_or_throw(t[i + 1], line, fmt::format("{} {}", t[0], kNames[i]));
  return c;
}

}  // namespace

std::string_view cpu_time_name(std::size_t i) {
  return kNames[i];
}

Stat parse_stat(std::string_view text) {
  Stat s;
  bool have_total = false, have_ctxt = false;
  const auto lines = split_lines(text);
  std::vector<std::string_view> t;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t line = i + 1;
    split_ws(lines[i], t);
    if (t.empty()) continue;
    const std::string_view key = t[0];
    auto single = [&](std::uint64_t& out) {
      if (t.size() < 2) throw CounterParseError(line, fmt::format("'{}' has no value", key));
      out = parse_u64_or_throw(t[1], line, key);
    };
    if (key == "cpu") {
      s.total = parse_cpu(t, line);
      have_total = true;
    } else if (key.starts_with("cpu")) {
      s.cpus.push_back(parse_cpu(t, line));
    } else if (key == "ctxt") {
      single(s.ctxt);
      have_ctxt = true;
    } else if (key == "processes") {
      single(s.processes);
    } else if (key == "intr") {
      single(s.intr);
    } else if (key == "softirq") {
      single(s.softirq);
    } else if (key == "btime") {
      single(s.btime);
    } else if (key == "procs_running") {
      single(s.procs_running);
    } else if (key == "procs_blocked") {
      single(s.procs_blocked);
    }
  }
  if (!have_total || !have_ctxt)
    throw CounterParseError(0, "not a /proc/stat text: no 'cpu' or 'ctxt' line");
  return s;
}

Stat diff(const Stat& before, const Stat& after) {
  if (before.btime != after.btime)
    throw CounterMismatchError(fmt::format(
        "/proc/stat btime changed ({} -> {}): the machine rebooted between the snapshots",
        before.btime, after.btime));
  if (before.cpus.size() != after.cpus.size())
    throw CounterMismatchError(fmt::format("/proc/stat: {} CPUs -> {} (CPU hotplug)",
                                           before.cpus.size(), after.cpus.size()));
  auto times = [](const CpuTimes& b, const CpuTimes& a) {
    if (b.cpu != a.cpu || b.fields != a.fields)
      throw CounterMismatchError(fmt::format("/proc/stat: cpu{} line changed shape", a.cpu));
    CpuTimes d = a;
    for (std::size_t i = 0; i < a.fields; ++i)
      d.v[i] =
          counter_delta(b.v[i], a.v[i], 64, fmt::format("/proc/stat cpu{} {}", a.cpu, kNames[i]));
    return d;
  };
  Stat d = after;
  d.total = times(before.total, after.total);
  for (std::size_t i = 0; i < d.cpus.size(); ++i) d.cpus[i] = times(before.cpus[i], after.cpus[i]);
  d.ctxt = counter_delta(before.ctxt, after.ctxt, 64, "/proc/stat ctxt");
  d.processes = counter_delta(before.processes, after.processes, 64, "/proc/stat processes");
  d.intr = counter_delta(before.intr, after.intr, 64, "/proc/stat intr");
  d.softirq = counter_delta(before.softirq, after.softirq, 64, "/proc/stat softirq");
  return d;
}

}  // namespace schedlab::procfs
