#include "runner/run/run_start.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "base/json_data.h"
#include "base/text.h"
#include "runner/lab/lab_config_yaml.h"
#include "runner/monitors/monitor_cpu.h"
#include "runner/run/kernel_columns.h"
#include "runner/run/run_group.h"
#include "runner/run/run_shape.h"
#include "runner/run/stored_config.h"

namespace schedlab {
namespace {

// `run --iterations N` of a run being resumed (its manifest), 0 when none.
int iterations_override(const RunInfo& run) {
  const auto m = parse_json_data(run.manifest_json);
  if (!m.is_object() || !m.contains("iterations_override")) return 0;
  return m["iterations_override"].is_number_integer() ? m["iterations_override"].get<int>() : 0;
}

// A smoke run: the same count for every point, recorded with the run (and
// given again to the kernels a resumed group has not started).
void set_iterations(RunStart& s, int iterations) {
  s.iterations = iterations;
  if (!iterations) return;
  s.plan_options.iterations = iterations;
  s.exec.manifest["iterations_override"] = iterations;
}

// A resumed run adds its monitors' CPU time to the stored sums: sums that
// are no CPU time (negative, past a double once added) are refused before
// anything runs, not stored as null or kept negative (issue 44).
void check_monitor_cpu(const RunInfo& run) {
  if (const auto problem = monitor_cpu_problem(run.manifest_json))
    throw RunRefused(
        fmt::format("run {} '{}' cannot be resumed: {} (a damaged or crafted database)", run.id,
                    terminal_safe(excerpt(run.name, 60)), *problem));
}

}  // namespace

RunStart new_run_start(Config config, const std::string& name, int iterations) {
  RunStart s;
  s.config = std::move(config);
  s.exec.name = name;
  if (const auto problem = run_name_problem(name))
    throw RunRefused(fmt::format("run name '{}': {}; give another --name",
                                 terminal_safe(excerpt(name)), *problem));
  if (is_multi_kernel(s.config) && !kernels_as_columns(s.config)) s.group = name;
  set_iterations(s, iterations);
  return s;
}

RunStart resume_start(const RunsTable& runs, const std::string& db, const std::string& arg) {
  RunStart s;
  const auto run = runs.find_run_arg(arg);
  // A multi-kernel plan resumes as a whole, by its name or a member's.
  s.group = run ? run_group(*run).value_or("") : arg;
  const auto members = s.group.empty() ? std::vector<RunInfo>{} : group_runs(runs, s.group);
  if (!members.empty()) {
    for (const auto& m : members) check_monitor_cpu(m);
    if (const auto why = stored_config_refusal(members.front())) throw RunRefused(*why);
    s.config = parse_config(members.front().config_text, members.front().config_path);
    set_iterations(s, iterations_override(members.front()));
    const auto kernels = plan_kernels(s.config.sut_lab);
    if (std::all_of(kernels.begin(), kernels.end(), [&](const std::string& k) {
          const auto r = runs.find_run_by_name(kernel_run_name(s.group, k));
          return r && r->status == RunStatus::kFinished;
        }))
      throw RunRefused(fmt::format("'{}' is already finished on every kernel", s.group));
    return s;
  }
  s.group.clear();
  if (!run) throw RunRefused(fmt::format("no run '{}' in {}", terminal_safe(excerpt(arg, 80)), db));
  if (run->config_path == "(import)")
    throw RunRefused(
        fmt::format("run {} '{}' was imported, not run: there is nothing to resume "
                    "(schedlab rm {} removes it)",
                    run->id, run->name, run->id));
  if (run->status == RunStatus::kFinished)
    throw RunRefused(fmt::format("run {} '{}' is already finished", run->id, run->name));
  check_monitor_cpu(*run);
  if (const auto why = stored_config_refusal(*run)) throw RunRefused(*why);
  s.config = parse_config(run->config_text, run->config_path);
  set_iterations(s, iterations_override(*run));
  s.exec.resume_run = run->id;
  return s;
}

bool group_name_taken(const RunsTable& runs, const Config& config, const std::string& group) {
  for (const auto& k : plan_kernels(config.sut_lab))
    if (runs.find_run_by_name(kernel_run_name(group, k)) || runs.find_run_by_name(group))
      return true;
  return false;
}

}  // namespace schedlab
