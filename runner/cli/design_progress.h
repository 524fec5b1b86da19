// `schedlab design --simulate`'s progress: one stderr line on a terminal,
// as a run keeps (runner/run/progress.h), rewritten in place and erased at
// the end:
//   simulating: 1200/600000 trials  ETA 4m12s
// The ETA is the trials left at the measured time a trial. A bound fixed
// before the work cannot say how long it takes: at the same trials x --max
// a trial costs 100 times more at one CV than at another (how many looks it
// takes before it stops), so the line shows it as it goes (issue 44).
#pragma once

#include <cstddef>
#include <cstdint>

#include "analysis/sequential/sequential_planning.h"

namespace schedlab::cli {

// simulate_design, with the line on stderr when it is a terminal whose
// TERM is not dumb; elsewhere nothing.
DesignSimulation simulate_with_progress(const DesignCost& cost, Noise noise, std::size_t trials,
                                        std::uint64_t seed);

}  // namespace schedlab::cli
