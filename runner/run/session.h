// One run: a kernel's plan on the config's pairs (several at once for
// `pairs:`, else the one hosts: pair). `schedlab run`, each kernel of a
// multi-kernel plan, nightly and bisect all go through here so they behave
// alike. The interrupt handlers must be installed by the caller.
#pragma once

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/run/run_shape.h"

namespace schedlab {

// Throws PreflightError, HostError and whatever the executor throws (a
// `pairs:` run records a failed pair and goes on: pairs_run.h).
RunSummary run_kernel(Store& store, const RunShape& shape, const KernelShape& kernel,
                      const ExecOptions& options);

// The config as one run (RunShape::one_run).
RunSummary run_config(Store& store, const Config& config, const ExecOptions& options);

}  // namespace schedlab
