// One kernel's plan on one SUT/loadgen pair: connect the hosts (a lab SUT
// boots here), build the RunContext, preflight, execute, disconnect (the
// lab guest powers off). Once the guest is off, knobs still journaled on it
// are marked discarded (runner/lab/guest_journal.h): they went with
// its kernel. The bottom of the run path (run_shape.h); callers install
// the interrupt handlers.
#pragma once

#include "results/store.h"
#include "runner/lab/host_set.h"
#include "runner/run/executor.h"
#include "runner/run/run_shape.h"

namespace schedlab {

// Throws PreflightError, HostError and whatever the executor throws.
RunSummary run_on_pair(Store& store, const RunShape& shape, const KernelShape& kernel,
                       const HostSpec& hosts, const ExecOptions& options);

}  // namespace schedlab
