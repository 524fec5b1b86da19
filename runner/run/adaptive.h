// When a sweep point has enough iterations: a fixed count, or (adaptive)
// when the confidence interval of the metric's centre is narrow enough.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "base/centre.h"
#include "results/iterations_table.h"
#include "runner/config/config.h"
#include "workloads/metric.h"

namespace schedlab {

struct StopDecision {
  bool stop = false;
  std::string reason;  // fixed | ci_reached | max_reached | failed
  std::optional<double> halfwidth_pct;  // of the centre, when computable
};

// Half-width of the interval of the centre that `compare` reports for these
// samples (analysis/stats/summary.h: Student t for amean, t on reciprocals for
// hmean, t on logs for gmean, order statistics for the median), as a
// percentage of the centre: (high - low) / 2 / |centre| * 100. Samples that
// are all equal give 0 (no spread: nothing left to narrow). Empty when there
// is no interval (n < 2, a median with too few samples for the level, an
// hmean interval unbounded above, data a mean is not defined for) or the
// centre is 0.
std::optional<double> ci_halfwidth_pct(std::span<const double> samples, Centre centre,
                                       double level = 0.95);

// What one ok iteration gives the stop rules of its point's primary metric:
// its value, or for an interval metric (time slices of one run,
// autocorrelated) the centre of its slices, as compare's tests use them;
// empty when the iteration has no sample of the metric.
std::optional<double> iteration_unit(const MetricSpec& metric, std::span<const SampleRow> samples);

// `ok` are the units (iteration_unit) of the point's successful iterations;
// `attempted` counts every iteration run at this point for this variant.
StopDecision should_stop(const IterationPolicy& policy, std::span<const double> ok,
                         int attempted, Centre centre);

}  // namespace schedlab
