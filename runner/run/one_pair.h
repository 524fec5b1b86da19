// One kernel's plan on one SUT/loadgen pair: connect the hosts (a lab SUT
// boots here), build the RunContext, preflight, execute, disconnect (the
// lab guest powers off). Once the guest is off, knobs still journaled on it
// are marked discarded (runner/lab/guest_journal.h): they went with
// its kernel. The bottom of the run path (run_shape.h); callers install
// the interrupt handlers.
#pragma once

#include <string>

#include "results/store.h"
#include "runner/lab/host_set.h"
#include "runner/run/executor.h"
#include "runner/run/run_shape.h"

namespace schedlab {

// After a lab guest powered off: knobs still journaled on it (a restore
// that failed, an error mid-variant) are marked discarded, with a note on
// stderr. Nothing for an empty name (no lab guest).
void discard_guest_knobs(Store& store, const std::string& lab_host) noexcept;

// Throws PreflightError, HostError and whatever the executor throws.
RunSummary run_on_pair(Store& store, const RunShape& shape, const KernelShape& kernel,
                       const HostSpec& hosts, const ExecOptions& options);

}  // namespace schedlab
