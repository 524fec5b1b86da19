#include "runner/run/session.h"

#include "runner/run/one_pair.h"
#include "runner/run/pairs_run.h"

namespace schedlab {

RunSummary run_kernel(Store& store, const RunShape& shape, const KernelShape& kernel,
                      const ExecOptions& options) {
  if (shape.several_pairs()) return run_pairs(store, shape, kernel, options);
  return run_on_pair(store, shape, kernel, shape.hosts(kernel, 0), options);
}

RunSummary run_config(Store& store, const Config& config, const ExecOptions& options) {
  const RunShape shape = RunShape::one_run(config);
  return run_kernel(store, shape, shape.kernels.front(), options);
}

}  // namespace schedlab
