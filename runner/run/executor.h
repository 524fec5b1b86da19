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

#include "results/status.h"
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

RunSummary execute(const RunContext& ctx);

}  // namespace schedlab
