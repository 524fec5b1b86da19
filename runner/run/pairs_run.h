// A `pairs:` config: the same plan on every SUT/loadgen pair at once, one
// thread per pair, all into one run. Each thread has its own database
// connection, hosts, knob journal and monitors (run_config on the config as
// its pair sees it); iterations record their pair. A pair that fails is
// recorded (manifest pairs.NAME.error, the summary's errors) and the others
// go on; Ctrl-C stops them all. Resume continues each pair where it stopped.
#pragma once

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/run/plan.h"

namespace schedlab {

RunSummary run_pairs(Store& store, const Config& config, const Plan& plan,
                     const ExecOptions& options);

}  // namespace schedlab
