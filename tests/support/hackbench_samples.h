// Two sets of hackbench times (seconds) that the statistics tests check
// against R and mmtests' golden vectors: a baseline and a SCHED_BATCH run.
#pragma once

#include <vector>

namespace schedlab::test {

inline const std::vector<double> kHackbenchBase{0.430, 0.425, 0.441, 0.428, 0.426};
inline const std::vector<double> kHackbenchBatch{0.442, 0.447, 0.439, 0.445, 0.437};

}  // namespace schedlab::test
