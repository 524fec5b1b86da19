#include "runner/monitors/monitor_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "analysis/counters/proc_text.h"
#include "analysis/counters/task_samples.h"
#include "base/json_data.h"
#include "base/message.h"

namespace schedlab {

MonitorRunner::MonitorRunner(RunsTable& runs, KnobJournalTable& journal, Host& sut,
                             std::int64_t run_id, Note note)
    : runs_(runs),
      journal_table_(journal),
      sut_(sut),
      run_id_(run_id),
      note_(std::move(note)),
      cpu_(sut) {
  if (!note_) note_ = print_line;
}

const std::vector<std::string_view>& MonitorRunner::paths(const MonitorSpec& m) const {
  return older_.count(std::string(m.name)) ? m.older_paths : m.paths;
}

std::optional<std::vector<std::string>> MonitorRunner::read(const MonitorSpec& m) {
  if (!m.script.empty()) {
    const ExecResult r = sut_.run(
        {.argv = {"sh", "-c", std::string(m.script)}, .timeout = std::chrono::seconds(30)});
    if (!r.ok()) throw HostError(fmt::format("sh -c '{}': {}", m.script, r.describe()));
    if (r.out.empty()) return std::nullopt;
    return std::vector<std::string>{r.out};
  }
  std::vector<std::string> texts;
  for (const auto path : paths(m)) {
    auto text = sut_.read_file(std::string(path));
    if (!text) return std::nullopt;
    texts.push_back(std::move(*text));
  }
  return texts;
}

void MonitorRunner::edit_manifest(const std::function<void(nlohmann::json&)>& edit) {
  const auto run = runs_.find_run(run_id_);
  if (!run) return;
  nlohmann::json manifest = parse_json_data(run->manifest_json);
  if (manifest.is_discarded() || !manifest.is_object()) manifest = nlohmann::json::object();
  edit(manifest);
  runs_.set_run_manifest(run_id_, manifest.dump());
}

// Added to what the manifest holds: a resumed run's CPU adds up.
void MonitorRunner::record_cpu() {
  const auto spent = cpu_.take();
  if (spent.empty()) return;
  edit_manifest([&](nlohmann::json& m) {
    nlohmann::json& cpu = m["monitor_cpu_s"];
    if (!cpu.is_object()) cpu = nlohmann::json::object();
    for (const auto& [name, seconds] : spent) {
      const double before =
          cpu.contains(name) && cpu[name].is_number() ? cpu[name].get<double>() : 0;
      cpu[name] = std::round((before + seconds) * 1e6) / 1e6;  // microseconds
    }
  });
}

void MonitorRunner::record(const std::string& key, const std::string& monitor,
                           const std::string& why) {
  edit_manifest([&](nlohmann::json& m) { m[key][monitor] = why; });
}

void MonitorRunner::mark_unavailable(const std::string& name, const std::string& why) {
  if (!unavailable_.emplace(name, why).second) return;
  note_(fmt::format("schedlab: monitor {} is unavailable on {}: {}; the run goes on without it",
                    name, sut_.name(), why));
  record("monitors_unavailable", name, why);
}

void MonitorRunner::report_error(const std::string& name, const std::string& why) {
  if (!errors_.emplace(name, why).second) return;
  note_(fmt::format("schedlab: monitor {}: {} (raw snapshots kept; reported once)", name, why));
  record("monitor_errors", name, why);
}

void MonitorRunner::start(const Config& config) {
  std::vector<const MonitorSpec*> used;
  for (const auto& wc : config.workloads)
    for (const auto& name : wc.monitors) {
      const MonitorSpec* m = find_monitor(name);
      if (m && std::find(used.begin(), used.end(), m) == used.end()) used.push_back(m);
    }
  const bool uses_tasks =
      std::any_of(config.workloads.begin(), config.workloads.end(), [](const auto& w) {
        return std::find(w.monitors.begin(), w.monitors.end(), tasks::kMonitorName) !=
               w.monitors.end();
      });
  if (uses_tasks) probe_tasks();
  probe_perf(config);
  if (!used.empty()) start_files(used);
  record_monitors_on(config);
}

// The monitors any workload names and the SUT can give, in the manifest's
// "monitors_on" (what a comparison's header names).
void MonitorRunner::record_monitors_on(const Config& config) {
  std::vector<std::string> on;
  for (const auto& wc : config.workloads)
    for (const auto& name : wc.monitors)
      if (!unavailable_.count(name) && std::find(on.begin(), on.end(), name) == on.end())
        on.push_back(name);
  if (!on.empty()) edit_manifest([&](nlohmann::json& m) { m["monitors_on"] = on; });
}

void MonitorRunner::start_files(const std::vector<const MonitorSpec*>& used) {
  journal_.emplace(journal_table_, sut_, run_id_);
  for (const MonitorSpec* m : used) {
    const auto metered = cpu_.measure(std::string(m->name));
    try {
      // sched-debug's file is in debugfs, which a SUT may not have mounted.
      // A kernel without debugfs may still have the older path.
      if (std::any_of(m->paths.begin(), m->paths.end(),
                      [](std::string_view p) { return p.starts_with("/sys/kernel/debug/"); })) {
        try {
          ensure_debugfs(sut_);
        } catch (const KnobError&) {
          if (m->older_paths.empty()) throw;
        }
      }
      // The files first: a kernel without the counters has no sysctl either.
      auto texts = read(*m);
      if (!texts && !m->older_paths.empty()) {
        // An older kernel's place for the same text.
        older_.insert(std::string(m->name));
        texts = read(*m);
        if (!texts) older_.erase(std::string(m->name));
      }
      if (!texts) {
        std::vector<std::string> missing;
        for (const auto& path_set : {m->paths, m->older_paths})
          for (const auto path : path_set)
            if (!sut_.read_file(std::string(path))) missing.emplace_back(path);
        mark_unavailable(std::string(m->name), fmt::format("no {}", fmt::join(missing, ", ")));
        continue;
      }
      for (const auto& [sysctl, value] : m->sysctls) {
        const std::string name(sysctl), want(value);
        if (read_sysctl(sut_, name) != normalize_sysctl_value(want))
          journal_->apply_sysctl({.name = name, .value = want});
      }
      m->check(*texts);
    } catch (const KnobError& e) {
      mark_unavailable(std::string(m->name), e.what());
    } catch (const CounterParseError& e) {
      mark_unavailable(std::string(m->name), fmt::format("unsupported file: {}", e.what()));
    } catch (const HostError& e) {
      mark_unavailable(std::string(m->name), e.what());
    }
  }
}

void MonitorRunner::stop() {
  sampler_.reset();
  // Each perf monitor's end (its session directory removed) is its own CPU too.
  for (auto& m : perf_) {
    const auto metered = cpu_.measure(m->name());
    m.reset();
  }
  perf_.clear();
  if (journal_) {
    journal_->restore_all();
    journal_.reset();
  }
  record_cpu();
}

std::vector<MonitorRunner::Snapshot> MonitorRunner::before(const std::vector<std::string>& names) {
  std::vector<Snapshot> out;
  for (const auto& name : names) {
    const MonitorSpec* m = find_monitor(name);
    if (!m || unavailable_.count(name)) continue;
    const auto metered = cpu_.measure(name);
    try {
      auto texts = read(*m);
      if (!texts) {
        mark_unavailable(std::string(m->name), "its files disappeared during the run");
        continue;
      }
      out.push_back({m, std::move(*texts)});
    } catch (const HostError& e) {
      report_error(std::string(m->name),
                   fmt::format("cannot read before an iteration: {}", e.what()));
    }
  }
  return out;
}

std::vector<MonitorRunner::Snapshot> MonitorRunner::before(const WorkloadConfig& workload,
                                                           const Point& point,
                                                           const StepContext& ctx) {
  // The sampler starts first and stops last, so its start-up (an SSH round
  // trip or two) stays out of the snapshots' window.
  sampler_.reset();  // one an interrupted iteration left running
  start_perf(workload);
  const auto& names = workload.monitors;
  if (std::find(names.begin(), names.end(), tasks::kMonitorName) != names.end())
    start_tasks(workload, point, ctx);
  return before(workload.monitors);
}

void MonitorRunner::after(const std::vector<Snapshot>& before, IterationRow& row) {
  for (const Snapshot& s : before) {
    const MonitorSpec& m = *s.spec;
    const std::string name(m.name);
    const auto metered = cpu_.measure(name);
    std::optional<std::vector<std::string>> after;
    try {
      after = read(m);
    } catch (const HostError& e) {
      report_error(name, fmt::format("cannot read after an iteration: {}", e.what()));
      continue;
    }
    if (!after) {
      mark_unavailable(name, "its files disappeared during the run");
      continue;
    }
    const auto& read_paths = paths(m);
    for (std::size_t i = 0; i < read_paths.size(); ++i) {
      row.monitor_snapshots.push_back({0, name, "before", std::string(read_paths[i]), s.before[i]});
      row.monitor_snapshots.push_back({0, name, "after", std::string(read_paths[i]), (*after)[i]});
    }
    try {
      const MonitorDelta d = m.diff(s.before, *after);
      for (const auto& r : d.rows) row.monitor_deltas.push_back({0, name, r.counter, r.value});
    } catch (const CounterParseError& e) {
      report_error(name, e.what());
    } catch (const CounterMismatchError& e) {
      report_error(name, e.what());
    }
  }
  finish_tasks(row);
  finish_perf(row);
}

// The sampler must run and its output parse: a SUT without /proc/PID/sched
// (no CONFIG_SCHED_DEBUG), sh or awk cannot give the counts.
void MonitorRunner::probe_tasks() {
  const std::string name(tasks::kMonitorName);
  const auto metered = cpu_.measure(name);
  try {
    if (!sut_.read_file("/proc/self/sched")) {
      mark_unavailable(name, "no /proc/PID/sched (a kernel without CONFIG_SCHED_DEBUG)");
      return;
    }
    tasks::parse(poll_tasks_once(sut_, {}));
  } catch (const HostError& e) {
    mark_unavailable(name, e.what());
  } catch (const CounterParseError& e) {
    mark_unavailable(name, fmt::format("the task sampler's output does not parse: {}", e.what()));
  }
}

void MonitorRunner::start_tasks(const WorkloadConfig& workload, const Point& point,
                                const StepContext& ctx) {
  const std::string name(tasks::kMonitorName);
  if (unavailable_.count(name)) return;
  const auto metered = cpu_.measure(name);
  const auto comms =
      comm_names(workload.task_monitor.comm.empty() ? workload.workload->task_names(point, ctx)
                                                    : workload.task_monitor.comm);
  if (comms.empty()) {
    report_error(name, fmt::format("workload {} names no processes of its own on the SUT; give "
                                   "them with task_monitor: {{comm: [...]}}",
                                   workload.workload->name()));
    return;
  }
  try {
    sampler_.emplace(sut_, comms, workload.task_monitor.interval);
    sampler_->start();
  } catch (const HostError& e) {
    sampler_.reset();
    report_error(name, fmt::format("cannot start the task sampler: {}", e.what()));
  }
}

void MonitorRunner::finish_tasks(IterationRow& row) {
  if (!sampler_) return;
  const std::string name(tasks::kMonitorName);
  const auto metered = cpu_.measure(name);
  std::string text;
  try {
    text = sampler_->stop();
  } catch (const HostError& e) {
    sampler_.reset();
    report_error(name, fmt::format("cannot stop the task sampler: {}", e.what()));
    return;
  }
  sampler_.reset();
  row.monitor_snapshots.push_back({0, name, "after", "/proc/PID/task/TID (sampled)", text});
  try {
    const MonitorDelta d = tasks::delta(tasks::reduce(tasks::parse(text)));
    for (const auto& r : d.rows) row.monitor_deltas.push_back({0, name, r.counter, r.value});
  } catch (const CounterParseError& e) {
    report_error(name, fmt::format("sampler output: {}", e.what()));
  } catch (const CounterMismatchError& e) {
    report_error(name, e.what());
  }
}

void MonitorRunner::probe_perf(const Config& config) {
  for (const auto kind : {PerfMonitor::Kind::kStat, PerfMonitor::Kind::kProfile}) {
    auto m = std::make_unique<PerfMonitor>(sut_, kind, config.perf);
    const std::string name = m->name();
    const bool used =
        std::any_of(config.workloads.begin(), config.workloads.end(), [&](const auto& w) {
          return std::find(w.monitors.begin(), w.monitors.end(), name) != w.monitors.end();
        });
    if (!used) continue;
    const auto metered = cpu_.measure(name);
    std::map<std::string, std::string> dropped;
    std::optional<std::string> why;
    try {
      why = m->probe(dropped);
    } catch (const HostError& e) {
      why = e.what();
    }
    for (const auto& [event, reason] : dropped) {
      note_(
          fmt::format("schedlab: monitor {}: event {} is unavailable on {}: {}; the other "
                      "events go on",
                      name, event, sut_.name(), reason));
      record("perf_events_unavailable", event, reason);
    }
    if (why) {
      mark_unavailable(name, *why);
      continue;
    }
    perf_.push_back(std::move(m));
  }
}

void MonitorRunner::start_perf(const WorkloadConfig& workload) {
  for (auto& m : perf_) {
    const std::string name = m->name();
    if (std::find(workload.monitors.begin(), workload.monitors.end(), name) ==
        workload.monitors.end())
      continue;
    const auto metered = cpu_.measure(name);
    try {
      m->start();
    } catch (const HostError& e) {
      report_error(name, fmt::format("cannot start perf: {}", e.what()));
    }
  }
}

// In reverse: the monitor started last stops first.
void MonitorRunner::finish_perf(IterationRow& row) {
  for (auto it = perf_.rbegin(); it != perf_.rend(); ++it) {
    PerfMonitor& m = **it;
    if (!m.running()) continue;
    const std::string name = m.name();
    const auto metered = cpu_.measure(name);
    PerfMonitor::Output out;
    try {
      out = m.finish();
    } catch (const HostError& e) {
      report_error(name, fmt::format("cannot stop perf: {}", e.what()));
      continue;
    }
    if (!out.text.empty()) row.monitor_snapshots.push_back({0, name, "after", out.path, out.text});
    if (!out.error.empty()) report_error(name, out.error);
    if (out.delta)
      for (const auto& r : out.delta->rows)
        row.monitor_deltas.push_back({0, name, r.counter, r.value});
  }
}

}  // namespace schedlab
