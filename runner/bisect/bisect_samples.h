// A bisection's samples: the spec's metric at its point, pooled over the
// runs of a candidate (or a reference), as the verdicts, the status and the
// page read them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/centre.h"
#include "base/metric_vocabulary.h"
#include "results/metrics_table.h"
#include "results/store.h"
#include "runner/bisect/bisect_spec.h"

namespace schedlab {

// The direction the runs' metric declares (the first run that has it),
// lower is better when none does.
Direction bisect_metric_direction(const MetricsTable& metrics, const BisectSpec& spec,
                                  const std::vector<std::int64_t>& runs);

// The centre the runs' metric declares (the first run that has it); amean
// when none does.
Centre bisect_metric_centre(const MetricsTable& metrics, const BisectSpec& spec,
                            const std::vector<std::int64_t>& runs);

// The samples of the spec's metric and point in the given runs, pooled
// (the first variant; ok iterations; an interval metric's per-iteration
// centres). Throws BisectError when the selection matches several points.
std::vector<double> bisect_samples(const Store& store, const BisectSpec& spec,
                                   const std::vector<std::int64_t>& runs);

}  // namespace schedlab
