#include "runner/run/adaptive.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <vector>

#include "analysis/stats.h"

namespace schedlab {

std::optional<double> ci_halfwidth_pct(std::span<const double> samples, Centre centre,
                                       double level) {
  if (samples.size() < 2) return std::nullopt;
  std::vector<double> x(samples.begin(), samples.end());
  if (centre == Centre::kHmean) {
    for (double& v : x) {
      if (v <= 0) return std::nullopt;  // hmean undefined
      v = 1.0 / v;
    }
  }
  const double mean = stats::amean(x);
  const auto sd = stats::stddev(x);
  if (!sd || mean == 0) return std::nullopt;
  const double n = static_cast<double>(x.size());
  const boost::math::students_t t(n - 1);
  const double q = boost::math::quantile(t, 0.5 + level / 2);
  return 100.0 * q * *sd / std::sqrt(n) / std::fabs(mean);
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
