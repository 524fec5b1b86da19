#include "analysis/counters/monitors.h"

#include <fmt/format.h>

#include <stdexcept>

#include "analysis/counters/cpu_residency.h"
#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"
#include "analysis/counters/procfs_interrupts.h"
#include "analysis/counters/procfs_pressure.h"
#include "analysis/counters/procfs_stat.h"
#include "analysis/counters/procfs_vmstat.h"
#include "analysis/counters/render_schedstat.h"
#include "analysis/counters/sched_debug.h"
#include "analysis/counters/schedstat_diff.h"
#include "analysis/counters/task_samples.h"

namespace schedlab {
namespace {

// One text per path of the monitor's row, in order.
void need(const std::vector<std::string>& texts, std::size_t n, std::string_view monitor) {
  if (texts.size() != n)
    throw std::invalid_argument(
        fmt::format("monitor {} reads {} files, given {} texts", monitor, n, texts.size()));
}

// Parse errors name the file they came from.
template <typename F>
auto in_file(std::string_view path, F&& f) {
  try {
    return f();
  } catch (const CounterParseError& e) {
    throw CounterParseError(e, path);
  }
}

void add(std::vector<CounterRow>& rows, std::string name, double v) {
  rows.push_back({std::move(name), v});
}
void add_sparse(std::vector<CounterRow>& rows, std::string name, double v) {
  if (v != 0) rows.push_back({std::move(name), v});
}

// ---- schedstat ----

MonitorDelta schedstat_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 1, "schedstat");
  need(a, 1, "schedstat");
  using namespace schedstat;
  const Snapshot d = diff(in_file("/proc/schedstat", [&] { return parse(b[0]); }),
                          in_file("/proc/schedstat", [&] { return parse(a[0]); }));
  const schedstat::Summary s = summarize(d);
  MonitorDelta out;
  out.json = to_json(s, {.per_cpu = &d});
  auto& rows = out.rows;
  add(rows, "jiffies", static_cast<double>(s.jiffies));
  for (std::size_t f = 0; f < kCpuFields; ++f)
    add(rows, fmt::format("all.{}", cpu_field_name(f)), static_cast<double>(s.total.v[f]));
  for (const auto& r : s.ratios)
    if (r.pct) add(rows, "all." + r.name, *r.pct);
  for (const auto& l : s.levels) {
    for (std::size_t f = 0; f < kDomainFields; ++f)
      if (available(s.layout, f))
        add(rows, fmt::format("{}.{}", l.key, domain_field_name(f)), static_cast<double>(l.c.v[f]));
    for (const auto& r : l.ratios)
      if (r.pct) add(rows, fmt::format("{}.{}", l.key, r.name), *r.pct);
  }
  for (const Cpu& cpu : d.cpus) {
    for (std::size_t f = 0; f < kCpuFields; ++f)
      add_sparse(rows, fmt::format("cpu{}.{}", cpu.cpu, cpu_field_name(f)),
                 static_cast<double>(cpu.c.v[f]));
    for (const Domain& dom : cpu.domains)
      for (std::size_t f = 0; f < kDomainFields; ++f)
        if (available(d.layout, f))
          add_sparse(rows,
                     fmt::format("cpu{}.domain{}.{}", cpu.cpu, dom.index, domain_field_name(f)),
                     static_cast<double>(dom.c.v[f]));
  }
  return out;
}

void schedstat_check(const std::vector<std::string>& t) {
  need(t, 1, "schedstat");
  in_file("/proc/schedstat", [&] { return schedstat::parse(t[0]); });
}

// ---- /proc/stat ----

MonitorDelta stat_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 1, "stat");
  need(a, 1, "stat");
  using namespace procfs;
  const procfs::Stat d = diff(in_file("/proc/stat", [&] { return parse_stat(b[0]); }),
                      in_file("/proc/stat", [&] { return parse_stat(a[0]); }));
  MonitorDelta out;
  auto& rows = out.rows;
  const std::pair<const char*, std::uint64_t> singles[] = {{"ctxt", d.ctxt},
                                                           {"processes", d.processes},
                                                           {"intr", d.intr},
                                                           {"softirq", d.softirq},
                                                           {"procs_running", d.procs_running},
                                                           {"procs_blocked", d.procs_blocked}};
  for (const auto& [name, v] : singles) {
    add(rows, name, static_cast<double>(v));
    out.json[name] = v;
  }
  auto times = [&](const CpuTimes& c, const std::string& prefix, bool sparse) {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t i = 0; i < c.fields; ++i) {
      const std::string name(cpu_time_name(i));
      j[name] = c.v[i];
      (sparse ? add_sparse : add)(rows, prefix + "." + name, static_cast<double>(c.v[i]));
    }
    return j;
  };
  out.json["cpu"] = times(d.total, "cpu", false);
  nlohmann::json cpus = nlohmann::json::array();
  for (const auto& c : d.cpus) {
    auto j = times(c, fmt::format("cpu{}", c.cpu), true);
    j["cpu"] = c.cpu;
    cpus.push_back(std::move(j));
  }
  out.json["cpus"] = std::move(cpus);
  out.json["unit"] = "USER_HZ ticks (cpu times); counts (the rest); procs_* are the values after";
  return out;
}

void stat_check(const std::vector<std::string>& t) {
  need(t, 1, "stat");
  in_file("/proc/stat", [&] { return procfs::parse_stat(t[0]); });
}

// ---- /proc/interrupts, /proc/softirqs ----

MonitorDelta irq_rows(const procfs::IrqTable& d) {
  MonitorDelta out;
  out.json["cpus"] = d.cpus;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : d.rows) {
    add(out.rows, r.name, static_cast<double>(r.total()));
    if (!r.total_only)
      for (std::size_t c = 0; c < r.per_cpu.size(); ++c)
        add_sparse(out.rows, fmt::format("{}.cpu{}", r.name, d.cpus[c]),
                   static_cast<double>(r.per_cpu[c]));
    rows.push_back({{"name", r.name},
                    {"description", r.description},
                    {"total", r.total()},
                    {"per_cpu", r.total_only ? nlohmann::json() : nlohmann::json(r.per_cpu)}});
  }
  out.json["rows"] = std::move(rows);
  return out;
}

MonitorDelta interrupts_delta(const std::vector<std::string>& b,
                              const std::vector<std::string>& a) {
  need(b, 1, "interrupts");
  need(a, 1, "interrupts");
  using namespace procfs;
  return irq_rows(diff(in_file("/proc/interrupts", [&] { return parse_interrupts(b[0]); }),
                       in_file("/proc/interrupts", [&] { return parse_interrupts(a[0]); })));
}
void interrupts_check(const std::vector<std::string>& t) {
  need(t, 1, "interrupts");
  in_file("/proc/interrupts", [&] { return procfs::parse_interrupts(t[0]); });
}
MonitorDelta softirqs_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 1, "softirqs");
  need(a, 1, "softirqs");
  using namespace procfs;
  return irq_rows(diff(in_file("/proc/softirqs", [&] { return parse_softirqs(b[0]); }),
                       in_file("/proc/softirqs", [&] { return parse_softirqs(a[0]); })));
}
void softirqs_check(const std::vector<std::string>& t) {
  need(t, 1, "softirqs");
  in_file("/proc/softirqs", [&] { return procfs::parse_softirqs(t[0]); });
}

// ---- /proc/pressure/* ----

constexpr std::string_view kPressure[] = {"cpu", "memory", "io"};

MonitorDelta pressure_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 3, "pressure");
  need(a, 3, "pressure");
  MonitorDelta out;
  for (std::size_t i = 0; i < std::size(kPressure); ++i) {
    const std::string path = fmt::format("/proc/pressure/{}", kPressure[i]);
    const auto d = procfs::diff(in_file(path, [&] { return procfs::parse_pressure(b[i]); }),
                                in_file(path, [&] { return procfs::parse_pressure(a[i]); }));
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [kind, line] : {std::pair{"some", d.some}, {"full", d.full}}) {
      if (!line) continue;
      const std::string prefix = fmt::format("{}.{}", kPressure[i], kind);
      add(out.rows, prefix + ".total_us", static_cast<double>(line->total_us));
      add(out.rows, prefix + ".avg10", line->avg10);
      add(out.rows, prefix + ".avg60", line->avg60);
      add(out.rows, prefix + ".avg300", line->avg300);
      j[kind] = {{"total_us", line->total_us},
                 {"avg10", line->avg10},
                 {"avg60", line->avg60},
                 {"avg300", line->avg300}};
    }
    out.json[std::string(kPressure[i])] = std::move(j);
  }
  out.json["unit"] = "total_us: stall time during the iteration; avg*: % after it";
  return out;
}

void pressure_check(const std::vector<std::string>& t) {
  need(t, 3, "pressure");
  for (std::size_t i = 0; i < std::size(kPressure); ++i)
    in_file(fmt::format("/proc/pressure/{}", kPressure[i]),
            [&] { return procfs::parse_pressure(t[i]); });
}

// ---- /proc/vmstat ----

MonitorDelta vmstat_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 1, "vmstat");
  need(a, 1, "vmstat");
  const auto d = procfs::diff(in_file("/proc/vmstat", [&] { return procfs::parse_vmstat(b[0]); }),
                              in_file("/proc/vmstat", [&] { return procfs::parse_vmstat(a[0]); }));
  MonitorDelta out;
  out.json = nlohmann::json::object();
  for (const auto& [name, v] : d) {
    add(out.rows, name, static_cast<double>(v));
    out.json[name] = v;
  }
  return out;
}

void vmstat_check(const std::vector<std::string>& t) {
  need(t, 1, "vmstat");
  in_file("/proc/vmstat", [&] { return procfs::parse_vmstat(t[0]); });
}

// ---- sched debug ----

constexpr std::string_view kSchedDebug = "/sys/kernel/debug/sched/debug";

MonitorDelta sched_debug_delta(const std::vector<std::string>& b,
                               const std::vector<std::string>& a) {
  need(b, 1, "sched-debug");
  need(a, 1, "sched-debug");
  return sched_debug::delta(in_file(kSchedDebug, [&] { return sched_debug::parse(b[0]); }),
                            in_file(kSchedDebug, [&] { return sched_debug::parse(a[0]); }));
}

void sched_debug_check(const std::vector<std::string>& t) {
  need(t, 1, "sched-debug");
  in_file(kSchedDebug, [&] { return sched_debug::parse(t[0]); });
}

// ---- cpuidle, cpufreq residency ----

constexpr std::string_view kCpuidle =
    "/sys/devices/system/cpu/cpu*/cpuidle/state*/{name,time,usage}";
constexpr std::string_view kCpufreq = "/sys/devices/system/cpu/cpu*/cpufreq/stats/time_in_state";

MonitorDelta cpuidle_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 1, "cpuidle");
  need(a, 1, "cpuidle");
  return residency::delta(in_file(kCpuidle, [&] { return residency::parse_cpuidle(b[0]); }),
                          in_file(kCpuidle, [&] { return residency::parse_cpuidle(a[0]); }),
                          "time_us: microseconds in the state; usage: entries into it");
}
void cpuidle_check(const std::vector<std::string>& t) {
  need(t, 1, "cpuidle");
  in_file(kCpuidle, [&] { return residency::parse_cpuidle(t[0]); });
}
MonitorDelta cpufreq_delta(const std::vector<std::string>& b, const std::vector<std::string>& a) {
  need(b, 1, "cpufreq");
  need(a, 1, "cpufreq");
  return residency::delta(in_file(kCpufreq, [&] { return residency::parse_cpufreq(b[0]); }),
                          in_file(kCpufreq, [&] { return residency::parse_cpufreq(a[0]); }),
                          "milliseconds at each frequency");
}
void cpufreq_check(const std::vector<std::string>& t) {
  need(t, 1, "cpufreq");
  in_file(kCpufreq, [&] { return residency::parse_cpufreq(t[0]); });
}

const std::vector<MonitorSpec>& table() {
  static const std::vector<MonitorSpec> specs = {
      {"schedstat",
       "scheduler counters per CPU and domain (/proc/schedstat v15-v17)",
       {"/proc/schedstat"},
       {{"kernel.sched_schedstats", "1"}},
       schedstat_check,
       schedstat_delta},
      {"stat",
       "CPU times, context switches, forks (/proc/stat)",
       {"/proc/stat"},
       {},
       stat_check,
       stat_delta},
      {"interrupts",
       "interrupts per source and CPU (/proc/interrupts)",
       {"/proc/interrupts"},
       {},
       interrupts_check,
       interrupts_delta},
      {"softirqs",
       "softirqs per kind and CPU (/proc/softirqs)",
       {"/proc/softirqs"},
       {},
       softirqs_check,
       softirqs_delta},
      {"pressure",
       "pressure stall time for cpu, memory and io (/proc/pressure/*)",
       {"/proc/pressure/cpu", "/proc/pressure/memory", "/proc/pressure/io"},
       {},
       pressure_check,
       pressure_delta},
      {"vmstat",
       "memory management counters (/proc/vmstat), as deltas",
       {"/proc/vmstat"},
       {},
       vmstat_check,
       vmstat_delta},
      {"sched-debug",
       "per-CPU switches, run queue lengths and loads (/sys/kernel/debug/sched/debug, "
       "/proc/sched_debug before 5.13)",
       {kSchedDebug},
       {},
       sched_debug_check,
       sched_debug_delta,
       {"/proc/sched_debug"}},
      {"cpuidle",
       "time in and entries into each CPU idle state (/sys/devices/system/cpu/cpu*/cpuidle)",
       {kCpuidle},
       {},
       cpuidle_check,
       cpuidle_delta,
       {},
       // Every CPU's states in one command; none: no output (grep's error
       // for the unexpanded glob is dropped).
       "grep -H . /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/name "
       "/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/time "
       "/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/usage 2> /dev/null; exit 0"},
      {"cpufreq",
       "time at each CPU frequency (/sys/devices/system/cpu/cpu*/cpufreq/stats/time_in_state)",
       {kCpufreq},
       {},
       cpufreq_check,
       cpufreq_delta,
       {},
       "grep -H . /sys/devices/system/cpu/cpu[0-9]*/cpufreq/stats/time_in_state 2> /dev/null; "
       "exit 0"},
  };
  return specs;
}

}  // namespace

const std::vector<MonitorSpec>& monitors() {
  return table();
}

std::vector<std::string_view> monitor_names() {
  std::vector<std::string_view> names;
  for (const auto& m : monitors()) names.push_back(m.name);
  names.push_back(tasks::kMonitorName);
  names.push_back(perf_stat::kMonitorName);
  names.push_back(perf_profile::kMonitorName);
  return names;
}

const MonitorSpec* find_monitor(std::string_view name) {
  for (const auto& m : monitors())
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace schedlab
