// What a run checks before it touches the SUT: the SUT left as an earlier
// run of it should have left it, and the plan runnable there.
#pragma once

#include "runner/config/config.h"
#include "runner/lab/host_set.h"
#include "runner/run/plan.h"
#include "runner/run/run_context.h"

namespace schedlab {

// Checks everything that can be checked before touching the SUT: tools
// installed, sysctls present, no knob left unrestored by an earlier run.
// Cleans up what a dead run of this SUT left (its work directories and
// servers) first; the rest is check_plan.
void preflight(const RunContext& ctx);

// The read-only half of preflight, which `run --dry-run` also runs: every
// program the plan's steps run exists where it runs, affinity CPUs are
// online, every knob exists on the SUT (features against its own list)
// and its value is one the kernel can take. Changes nothing anywhere.
// Throws PreflightError.
void check_plan(const Pair& pair, const Config& config, const Plan& plan);

// Each kernel knob of the plan's variants written, read back and put back
// (journaled like any write, under RUN_ID), before anything is measured:
// the kernel publishes no range for most sysctls, so a value it refuses
// (vm.swappiness: -5, EINVAL) or keeps another (a clamped tunable) fails
// the run here, naming the knob, the value and what it reads, never after
// the baseline was measured. Throws PreflightError (file:line: key).
void try_knobs(const RunContext& ctx, std::int64_t run_id);

}  // namespace schedlab
