// When a sweep point has enough iterations: a fixed count, or (adaptive)
// when the confidence interval of the metric's centre is narrow enough.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "runner/config/config.h"
#include "workloads/metric.h"

namespace schedlab {

struct StopDecision {
  bool stop = false;
  std::string reason;  // fixed | ci_reached | max_reached | failed
  std::optional<double> halfwidth_pct;  // of the centre, when computable
};

// Half-width of the 95% Student t interval of the centre, as a percentage
// of the centre. For a harmonic mean the interval is taken on the
// reciprocals (delta method) and mapped back, so the relative width is the
// reciprocals' relative width. Empty for n < 2 or a zero centre.
std::optional<double> ci_halfwidth_pct(std::span<const double> samples, Centre centre,
                                       double level = 0.95);

// `ok` are the primary metric's samples of successful iterations;
// `attempted` counts every iteration run at this point for this variant.
StopDecision should_stop(const IterationPolicy& policy, std::span<const double> ok,
                         int attempted, Centre centre);

}  // namespace schedlab
