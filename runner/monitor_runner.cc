#include "runner/monitor_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "analysis/proc_text.h"

namespace schedlab {

MonitorRunner::MonitorRunner(Store& store, Host& sut, std::int64_t run_id, Note note)
    : store_(store), sut_(sut), run_id_(run_id), note_(std::move(note)) {
  if (!note_) note_ = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
}

std::optional<std::vector<std::string>> MonitorRunner::read(const MonitorSpec& m) {
  std::vector<std::string> texts;
  for (const auto path : m.paths) {
    auto text = sut_.read_file(std::string(path));
    if (!text) return std::nullopt;
    texts.push_back(std::move(*text));
  }
  return texts;
}

void MonitorRunner::record(const std::string& key, const std::string& monitor,
                           const std::string& why) {
  const auto run = store_.find_run(run_id_);
  if (!run) return;
  nlohmann::json manifest = nlohmann::json::parse(run->manifest_json, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) manifest = nlohmann::json::object();
  manifest[key][monitor] = why;
  store_.set_run_manifest(run_id_, manifest.dump());
}

void MonitorRunner::mark_unavailable(const MonitorSpec& m, const std::string& why) {
  const std::string name(m.name);
  if (!unavailable_.emplace(name, why).second) return;
  note_(fmt::format("schedlab: monitor {} is unavailable on {}: {}; the run goes on without it",
                    name, sut_.name(), why));
  record("monitors_unavailable", name, why);
}

void MonitorRunner::report_error(const MonitorSpec& m, const std::string& why) {
  const std::string name(m.name);
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
  if (used.empty()) return;
  journal_.emplace(store_, sut_, run_id_);
  for (const MonitorSpec* m : used) {
    try {
      // The files first: a kernel without the counters has no sysctl either.
      auto texts = read(*m);
      if (!texts) {
        std::vector<std::string> missing;
        for (const auto path : m->paths)
          if (!sut_.read_file(std::string(path))) missing.emplace_back(path);
        mark_unavailable(*m, fmt::format("no {}", fmt::join(missing, ", ")));
        continue;
      }
      for (const auto& [sysctl, value] : m->sysctls) {
        const std::string name(sysctl), want(value);
        if (read_sysctl(sut_, name) != normalize_sysctl_value(want))
          journal_->apply_sysctl({.name = name, .value = want});
      }
      m->check(*texts);
    } catch (const KnobError& e) {
      mark_unavailable(*m, e.what());
    } catch (const CounterParseError& e) {
      mark_unavailable(*m, fmt::format("unsupported file: {}", e.what()));
    } catch (const HostError& e) {
      mark_unavailable(*m, e.what());
    }
  }
}

void MonitorRunner::stop() {
  if (!journal_) return;
  journal_->restore_all();
  journal_.reset();
}

std::vector<MonitorRunner::Snapshot> MonitorRunner::before(const std::vector<std::string>& names) {
  std::vector<Snapshot> out;
  for (const auto& name : names) {
    const MonitorSpec* m = find_monitor(name);
    if (!m || unavailable_.count(name)) continue;
    try {
      auto texts = read(*m);
      if (!texts) {
        mark_unavailable(*m, "its files disappeared during the run");
        continue;
      }
      out.push_back({m, std::move(*texts)});
    } catch (const HostError& e) {
      report_error(*m, fmt::format("cannot read before an iteration: {}", e.what()));
    }
  }
  return out;
}

void MonitorRunner::after(const std::vector<Snapshot>& before, IterationRow& row) {
  for (const Snapshot& s : before) {
    const MonitorSpec& m = *s.spec;
    const std::string name(m.name);
    std::optional<std::vector<std::string>> after;
    try {
      after = read(m);
    } catch (const HostError& e) {
      report_error(m, fmt::format("cannot read after an iteration: {}", e.what()));
      continue;
    }
    if (!after) {
      mark_unavailable(m, "its files disappeared during the run");
      continue;
    }
    for (std::size_t i = 0; i < m.paths.size(); ++i) {
      row.monitor_snapshots.push_back({0, name, "before", std::string(m.paths[i]), s.before[i]});
      row.monitor_snapshots.push_back({0, name, "after", std::string(m.paths[i]), (*after)[i]});
    }
    try {
      const MonitorDelta d = m.diff(s.before, *after);
      for (const auto& r : d.rows) row.monitor_deltas.push_back({0, name, r.counter, r.value});
    } catch (const CounterParseError& e) {
      report_error(m, e.what());
    } catch (const CounterMismatchError& e) {
      report_error(m, e.what());
    }
  }
}

}  // namespace schedlab
