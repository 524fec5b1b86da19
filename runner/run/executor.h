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
#include "runner/run/step_runner.h"

namespace schedlab {

class PreflightError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExecOptions {
  std::string name;                        // run name; unique in the database
  std::optional<std::int64_t> resume_run;  // continue this run instead of starting one
  bool progress = false;                   // one status line on stderr
  // The runs of one multi-kernel `schedlab run` share it (manifest "group";
  // see kernel_runs.h); empty for a plain run.
  std::string group;
  // One pair of a `pairs:` run (runner/run/pairs_run.h): the run exists
  // (resume_run), this execution records its iterations under the pair's
  // name and its manifest under manifest.pairs.NAME, and leaves the run's
  // status to the caller.
  std::string pair;
};

struct RunSummary {
  std::int64_t run_id = 0;
  std::string name;
  std::string status;  // finished | interrupted | failed
  int measured = 0;    // iterations run now, any status
  int skipped = 0;     // points already complete (resume)
  int failed = 0;      // iterations run now that did not produce samples
  std::vector<std::string> errors;  // one line per failed iteration
};

// A new run with the config's variants and metrics, status "running".
std::int64_t create_run_record(Store& store, const Config& config, const std::string& name,
                               const std::string& manifest_json);

// Checks everything that can be checked before touching the SUT: tools
// installed, sysctls present, no knob left unrestored by an earlier run.
void preflight(Store& store, const Pair& pair, const Config& config, const Plan& plan);

RunSummary execute(Store& store, const Pair& pair, const Config& config, const Plan& plan,
                   const ExecOptions& options);

}  // namespace schedlab
