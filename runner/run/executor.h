// Executes a plan on a SUT/loadgen pair. For each workload entry: setup
// once; for each sweep point, every variant gets its iterations (interleaved
// A B A B by default) until its iteration policy says stop; knobs are
// switched through the journal; each finished iteration is committed at
// once. Teardown, server shutdown and knob restore happen on every exit
// path, Ctrl-C included.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/plan.h"
#include "runner/run/run_context.h"

namespace schedlab {

struct RunSummary {
  std::int64_t run_id = 0;
  std::string name;
  RunStatus status = RunStatus::kFinished;  // finished | interrupted | failed
  int measured = 0;    // iterations run now, any status
  int skipped = 0;     // points already complete (resume)
  int failed = 0;      // iterations run now that did not produce samples
  std::vector<std::string> errors;  // one line per failed iteration
};

// A new run with the plan's variants and the config's metrics, status
// "running"; its manifest gets `planned_iterations` {min, max} (the plan's
// on each of `pairs` pairs), so `list` can say how much of it ran.
std::int64_t create_run_record(Store& store, const Config& config, const Plan& plan,
                               const std::string& name, const std::string& manifest_json, std::size_t pairs = 1);

// Checks everything that can be checked before touching the SUT: tools
// installed, sysctls present, no knob left unrestored by an earlier run.
// Cleans up what a dead run of this SUT left (its work directories and
// servers) first; the rest is check_plan.
void preflight(const RunContext& ctx);

// The read-only half of preflight, which `run --dry-run` also runs: every
// program the plan's steps run exists where it runs, affinity CPUs are
// online, every knob exists on the SUT (features against its own list)
// and its value is one the kernel can take. Changes nothing anywhere.
// Throws PreflightError.
void check_plan(const Pair& pair, const Config& config, const Plan& plan);

RunSummary execute(const RunContext& ctx);

}  // namespace schedlab
