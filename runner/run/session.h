// One config executed end to end: connect the hosts it names (booting a lab
// SUT if it names one), preflight, run, disconnect (the lab guest powers
// off). `schedlab run`, multi-kernel plans, nightly and bisect all go
// through here so they behave alike.
#pragma once

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/run/plan.h"

namespace schedlab {

// Throws PreflightError, HostError and whatever the executor throws; the
// interrupt handlers must be installed by the caller. A lab config runs the
// variants that apply to sut_lab->kernel (re-expanding the plan when some
// do not); once its guest is off, knobs still journaled on it are marked
// discarded (runner/hosts/lab/guest_journal.h). Multi-kernel plans loop over this
// (kernel_runs.h).
RunSummary run_config(Store& store, const Config& config, const Plan& plan, const ExecOptions& options);

}  // namespace schedlab
