// A `pairs:` config: the same plan on every SUT/loadgen pair at once, one
// thread per pair, all into one run. Each thread has its own database
// connection, hosts, knob journal and monitors (run_on_pair with the pair's
// hosts); iterations record their pair. A pair that fails is
// recorded (manifest pairs.NAME.error, the summary's errors) and the others
// go on; Ctrl-C stops them all. Resume continues each pair where it stopped.
#pragma once

#include "results/store.h"
#include "runner/run/executor.h"
#include "runner/run/run_shape.h"

namespace schedlab {

RunSummary run_pairs(Store& store, const RunShape& shape, const KernelShape& kernel,
                     const ExecOptions& options);

}  // namespace schedlab
