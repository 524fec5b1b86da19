// Monitors on the SUT for one run (analysis/counters/monitors.h has the registry):
// what a monitor needs is switched on through a run-level knob journal,
// its files are read before and after each iteration's measured steps, and
// the raw texts and the delta rows go onto the iteration's row, so they are
// committed in the iteration's transaction.
//
// A monitor the SUT lacks (a file or sysctl that does not exist, an
// unsupported layout) is reported once on stderr and recorded in the run
// manifest under "monitors_unavailable"; a delta that cannot be computed for
// one iteration (a counter went backwards) keeps the raw snapshots, is
// reported once per monitor and recorded under "monitor_errors". Neither
// fails the run.
//
// Order of sysctls: start() runs before any variant switches its knobs, so
// a variant that sets the same sysctl (say kernel.sched_schedstats=0) is
// journaled on top of the monitor's value and wins while it is active; its
// own restore puts the monitor's value back, and stop() restores the value
// found before the run (journals unwind newest first).
//
// The `tasks` monitor is not a file snapshot: before() starts a sampler of
// the workload's processes on the SUT (runner/monitors/task_sampler.h) and after()
// stops it, storing its raw output as the "after" snapshot and the reduced
// counts (analysis/counters/task_samples.h) as delta rows. An iteration that never
// reaches after() (interrupted) has its sampler stopped by the next
// before(), by stop() or by the destructor.
//
// On a SUT that is this machine, what each monitor's work costs in CPU
// (runner/monitors/monitor_cpu.h) is added up and stop() adds it to the
// manifest's "monitor_cpu_s" (monitor -> seconds).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/counters/monitors.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "runner/config/config.h"
#include "runner/hosts/host.h"
#include "runner/knobs/knobs.h"
#include "runner/monitors/monitor_cpu.h"
#include "runner/monitors/perf_monitor.h"
#include "runner/monitors/task_sampler.h"

namespace schedlab {

class MonitorRunner {
 public:
  using Note = std::function<void(const std::string&)>;
  // `note` receives the one-line reports (default: stderr). The run's
  // manifest records the monitors found unavailable; `journal` keeps the
  // sysctls they need.
  MonitorRunner(RunsTable& runs, KnobJournalTable& journal, Host& sut, std::int64_t run_id,
                Note note = {});
  ~MonitorRunner() = default;  // the journal restores what stop() did not; never throws

  // Probes every monitor any workload of the config uses and applies the
  // sysctls they need; the usable ones go into the manifest's
  // "monitors_on". Call before any variant's knobs.
  void start(const Config& config);
  // Restores the monitors' sysctls and records their CPU. Throws KnobError
  // like KnobJournal::restore_all.
  void stop();

  // The texts of each usable monitor among `names`, read now.
  struct Snapshot {
    const MonitorSpec* spec = nullptr;
    std::vector<std::string> before;
  };
  std::vector<Snapshot> before(const std::vector<std::string>& names);
  // The same for a workload's monitors, `tasks` included: its sampler
  // watches the workload's process names at this point.
  std::vector<Snapshot> before(const WorkloadConfig& workload, const Point& point,
                               const StepContext& ctx);
  // Reads again, diffs, and appends snapshots and delta rows to `row`.
  void after(const std::vector<Snapshot>& before, IterationRow& row);

  // monitor -> why, for the monitors found unavailable.
  const std::map<std::string, std::string>& unavailable() const { return unavailable_; }

 private:
  // The paths read for a monitor: its own, or its older_paths where the SUT
  // has only those (found at start).
  const std::vector<std::string_view>& paths(const MonitorSpec& m) const;
  // Every path's text, or empty when one does not exist.
  std::optional<std::vector<std::string>> read(const MonitorSpec& m);
  void probe_tasks();
  void start_tasks(const WorkloadConfig& workload, const Point& point, const StepContext& ctx);
  void finish_tasks(IterationRow& row);
  void start_files(const std::vector<const MonitorSpec*>& used);
  void record_monitors_on(const Config& config);
  void probe_perf(const Config& config);
  void start_perf(const WorkloadConfig& workload);
  void finish_perf(IterationRow& row);
  void mark_unavailable(const std::string& monitor, const std::string& why);
  void report_error(const std::string& monitor, const std::string& why);
  void record(const std::string& key, const std::string& monitor, const std::string& why);
  void edit_manifest(const std::function<void(nlohmann::json&)>& edit);
  void record_cpu();

  RunsTable& runs_;
  KnobJournalTable& journal_table_;
  Host& sut_;
  std::int64_t run_id_;
  Note note_;
  MonitorCpu cpu_;
  std::optional<KnobJournal> journal_;
  std::map<std::string, std::string> unavailable_;
  std::map<std::string, std::string> errors_;
  std::set<std::string> older_;         // monitors read at their older_paths
  std::optional<TaskSampler> sampler_;  // the `tasks` monitor's, during an iteration
  std::vector<std::unique_ptr<PerfMonitor>>
      perf_;  // perf-stat and perf-profile, when used and usable
};

}  // namespace schedlab
