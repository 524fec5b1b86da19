// What `schedlab run` starts, decided before anything connects: a new run
// of a config, or what `--resume ARG` continues, decided from the store: a
// multi-kernel plan as a whole (kernel_runs.h), named by its name or by
// one of its runs', or one run. `--iterations N` (a smoke run: every point
// N iterations) is recorded in the manifest ("iterations_override"), and a
// resume keeps it.
#pragma once

#include <stdexcept>
#include <string>

#include "results/runs_table.h"
#include "runner/config/config.h"
#include "runner/run/plan.h"
#include "runner/run/run_context.h"

namespace schedlab {

// Why the run cannot start (a name a run may not have; no such run to
// resume, an imported or finished one, a group finished on every kernel):
// the command's message, bad input.
class RunRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunStart {
  Config config;             // the file's, or as the resumed run stored it
  ExecOptions exec;          // the new run's name, or the run resumed; the manifest's members
  PlanOptions plan_options;  // the smoke run's count
  int iterations = 0;        // that count; 0: the config's
  std::string group;         // the multi-kernel plan's name; empty for one run
};

// A new run of CONFIG named NAME. Throws RunRefused for a name no run may
// have (run_name_problem).
RunStart new_run_start(Config config, const std::string& name, int iterations);

// `run --resume ARG`. Throws RunRefused, or ConfigError for a stored
// config that no longer loads. `db` is what messages name.
RunStart resume_start(const RunsTable& runs, const std::string& db, const std::string& arg);

// Whether a new multi-kernel plan named GROUP would take over runs of an
// earlier one: a run of that name or of one of its kernels' names.
bool group_name_taken(const RunsTable& runs, const Config& config, const std::string& group);

}  // namespace schedlab
