// The regression rule of a nightly file: alpha and minimum effect, per
// metric if wanted. Apart from analysis/nightly/regression.h so that the nightly
// file's parser (runner) need not see the comparison types.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace schedlab {

struct MetricRule {
  std::optional<double> alpha;
  std::optional<double> min_effect_pct;
};

struct RegressionRule {
  double alpha = 0.05;
  double min_effect_pct = 3;  // |change| in percent
  // The test behind the p-values: welch (Welch's t-test) or mwu
  // (Mann-Whitney U, rank-based: one wild sample does not hide a change).
  std::string test = "welch";
  // Overrides by "workload/metric" (e.g. hackbench/time) or by the metric
  // name alone; the first form wins.
  std::map<std::string, MetricRule> per_metric;

  // The alpha and minimum effect that apply to one metric.
  double alpha_for(const std::string& workload, const std::string& metric) const;
  double min_effect_for(const std::string& workload, const std::string& metric) const;
};

}  // namespace schedlab
