#include "runner/run/adaptive.h"

#include <algorithm>
#include <cmath>

#include "analysis/stats/summary.h"

namespace schedlab {

std::optional<double> ci_halfwidth_pct(std::span<const double> samples, Centre centre,
                                       double level) {
  if (samples.size() < 2) return std::nullopt;
  const auto c = centre_of(samples, centre);
  if (!c || *c == 0) return std::nullopt;
  if (std::all_of(samples.begin(), samples.end(), [&](double v) { return v == samples.front(); }))
    return 0.0;
  const CentreInterval ci = centre_interval(samples, centre, level);
  if (!ci.ci) return std::nullopt;
  return 100.0 * (ci.ci->high - ci.ci->low) / 2 / std::fabs(*c);
}

std::optional<double> iteration_unit(const MetricSpec& metric, std::span<const SampleRow> samples) {
  if (metric.kind != SampleKind::kInterval) {
    for (const auto& s : samples)
      if (s.metric == metric.name) return s.value;
    return std::nullopt;
  }
  std::vector<double> slices;
  for (const auto& s : samples)
    if (s.metric == metric.name) slices.push_back(s.value);
  return centre_of(slices, metric.centre);
}

StopDecision should_stop(const IterationPolicy& policy, std::span<const double> ok,
                         int attempted, Centre centre) {
  StopDecision d;
  if (policy.adaptive()) d.halfwidth_pct = ci_halfwidth_pct(ok, centre);
  if (!policy.adaptive()) {
    d.stop = attempted >= policy.max;
    d.reason = "fixed";
    return d;
  }
  if (attempted >= policy.min && ok.empty()) {
    // Every iteration failed: more of them will not narrow anything.
    d.stop = true;
    d.reason = "failed";
    return d;
  }
  if (static_cast<int>(ok.size()) >= policy.min && d.halfwidth_pct &&
      *d.halfwidth_pct <= *policy.ci_width_pct) {
    d.stop = true;
    d.reason = "ci_reached";
    return d;
  }
  if (attempted >= policy.max) {
    d.stop = true;
    d.reason = "max_reached";
  }
  return d;
}

}  // namespace schedlab
