// Kernels as columns: a lab config listing two kernels or more whose
// workloads stop sequentially (`kernels: [git:~/linux@HEAD,
// git:~/linux@WORKTREE]`, `iterations: {stop: sequential}`) is one run whose
// variants are every kernel x variant (HEAD/default, WORKTREE/default; the
// first the baseline). Every kernel built from source is built first, in
// order, so a build error stops the run before any guest boots; then every
// guest boots at once and stays up, and the executor's interleaved rounds
// alternate between them (one iteration on each kernel still measured, then
// the sequential test's look), so slow drift hits every kernel alike. The
// cell's `sequential` object is the variant comparison's. A guest that dies
// fails its own iterations with the reason; the other kernels' are kept.
#pragma once

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/run/run_shape.h"

namespace schedlab {

// Whether `config` runs as kernels as columns: a lab listing two kernels or
// more, and a workload with stop: sequential.
bool kernels_as_columns(const Config& config);

// The run (RunShape::kernel_columns), new or resumed (options.resume_run).
// Its manifest's `kernel_columns` has, per kernel, the column prefix, the
// kernel as the config wrote it, the lab manifest of its guest (its build,
// @WORKTREE's edits included) and the CPU seconds its qemu used while the
// others were measured. Throws PreflightError, HostError, lab build errors
// and whatever the executor throws.
RunSummary run_kernel_columns(Store& store, const RunShape& shape, const ExecOptions& options);

}  // namespace schedlab
