// `schedlab run --dry-run`: the plan printed (a multi-kernel plan's
// kernels and their runs first) and the run's read-only checks made on
// each pair it can reach, touching nothing.
#pragma once

#include <string>

#include "runner/config/config.h"
#include "runner/run/plan.h"

namespace schedlab {

// To stdout (what cannot be reached, to stderr). `group`: the
// multi-kernel plan's name, empty for one run; `iterations`: `run
// --iterations N`, 0 for the config's. Throws PreflightError where the run
// would refuse (check_plan).
void print_dry_run(const Config& config, const PlanOptions& plan_options, const Plan& plan,
                   const std::string& group, int iterations);

}  // namespace schedlab
