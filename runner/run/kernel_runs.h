// Multi-kernel plans: a lab config with `kernels: [debian:6.1, debian:6.12]`
// boots each kernel in turn (sequentially) and runs the plan on it with the
// variants that apply to it, each kernel as its own run named NAME@LABEL
// (LABEL = lab::kernel_label: 6.1, 6.12). The runs share "group": NAME in
// their manifests, so `schedlab compare NAME` rebuilds the combined table,
// `schedlab run --resume NAME` continues with the kernels not finished, and
// a single kernel's run (nightly) stays an ordinary run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/store.h"
#include "runner/run/executor.h"
#include "runner/run/run_group.h"
#include "runner/run/run_shape.h"

namespace schedlab {

struct KernelRunsResult {
  std::vector<RunSummary> runs;     // one per kernel run now (resumed or new)
  std::vector<std::string> done;    // kernels skipped: their run had finished
  std::vector<std::string> errors;  // "debian:6.1: lab: ..." per kernel that failed
  bool interrupted = false;         // stopped by a signal; later kernels not started
};

// Runs the group: each kernel of the shape (RunShape::per_kernel) in
// order; a kernel whose run is finished is skipped, an unfinished one
// resumed, a missing one started. A kernel that fails (boot, preflight) is
// reported and the next one runs; a signal stops the loop. Each guest is
// powered off before the next boots (run_kernel). `base` gives progress and
// manifest members; name, resume and the manifest's "group" are set here.
KernelRunsResult run_kernels(Store& store, const RunShape& shape, const std::string& group,
                             const ExecOptions& base);

// On stderr, what `run` says of a group's runs: each run's failed
// iterations and its line, then the kernels already finished. Returns the
// iterations that failed, over all runs.
int print_kernel_runs(const KernelRunsResult& r);

}  // namespace schedlab
