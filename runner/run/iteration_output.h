// An iteration row's status, error and samples from its output, judged as
// `run`, `import` and `parse` all judge it (workloads/judge_output.h): the
// one place an output becomes a stored status.
#pragma once

#include <string>

#include "results/iterations_table.h"
#include "runner/run/step_runner.h"
#include "workloads/judge_output.h"

namespace schedlab {

IterationStatus iteration_status(OutputVerdict v);

// What an iteration's (or a setup's) phase ending is stored as; an
// interrupted phase is never stored (resume runs it again).
IterationStatus stored_status(PhaseStatus s);

// For a step that exited successfully: sets row.status, row.error and
// row.samples (samples kept for a judged failure, cleared otherwise);
// `read`: samples read by another reader (judge_output.h).
void judge_into(IterationRow& row, const Workload& w, const Point& p, const std::string& out,
                const std::string& err, const ReadSamples* read = nullptr);

}  // namespace schedlab
