// The regression rule over computed comparisons of plain samples: it needs
// significance, the minimum effect and the bad direction, all three.
#include "analysis/nightly/regression.h"

#include <catch2/catch.hpp>

using namespace schedlab;

namespace {

Comparison comparison(const std::vector<double>& base, const std::vector<double>& other,
                      Direction direction, Test test = Test::kWelch,
                      const std::string& centre = "amean") {
  const MetricInfo metric{.workload = "hackbench",
                          .name = "time",
                          .unit = "s",
                          .direction = direction,
                          .centre = centre,
                          .kind = SampleKind::kRun};
  return compare_samples({{"base", base}, {"new", other}}, metric, {.test = test});
}

const std::vector<double> kBase = {1.00, 1.01, 0.99, 1.00, 1.02, 0.98};

}  // namespace

TEST_CASE("a significant change beyond the minimum effect in the bad direction is a regression") {
  const RegressionRule rule{.alpha = 0.05, .min_effect_pct = 3};
  // 10% slower, lower is better: a regression.
  const auto slower = find_regressions(
      comparison(kBase, {1.10, 1.11, 1.09, 1.10, 1.12, 1.08}, Direction::kLowerIsBetter), rule);
  REQUIRE(slower.size() == 1);
  CHECK(slower[0].workload == "hackbench");
  CHECK(slower[0].metric == "time");
  CHECK(slower[0].column == 1);
  CHECK(slower[0].pct == Approx(-10));
  CHECK(slower[0].p_value < 0.001);
  CHECK(slower[0].min_effect_pct == 3);
  // The same numbers when higher is better: an improvement.
  CHECK(
      find_regressions(
          comparison(kBase, {1.10, 1.11, 1.09, 1.10, 1.12, 1.08}, Direction::kHigherIsBetter), rule)
          .empty());
  // Significant but smaller than the minimum effect: not a regression.
  CHECK(
      find_regressions(
          comparison(kBase, {1.02, 1.03, 1.01, 1.02, 1.04, 1.00}, Direction::kLowerIsBetter), rule)
          .empty());
  // Large but not significant (noise): not a regression.
  CHECK(find_regressions(
            comparison(kBase, {0.7, 1.5, 0.9, 1.6, 1.0, 0.9}, Direction::kLowerIsBetter), rule)
            .empty());
}

TEST_CASE("the minimum effect and alpha can be set per metric") {
  const auto c = comparison(kBase, {1.05, 1.06, 1.04, 1.05, 1.07, 1.03},
                            Direction::kLowerIsBetter);  // 5% slower
  CHECK(find_regressions(c, {.min_effect_pct = 3}).size() == 1);
  CHECK(find_regressions(
            c, {.min_effect_pct = 3, .per_metric = {{"hackbench/time", {.min_effect_pct = 6}}}})
            .empty());
  CHECK(find_regressions(c, {.min_effect_pct = 3, .per_metric = {{"time", {.min_effect_pct = 6}}}})
            .empty());
  // workload/metric wins over the metric name alone.
  CHECK(find_regressions(c, {.min_effect_pct = 3,
                             .per_metric = {{"time", {.min_effect_pct = 6}},
                                            {"hackbench/time", {.min_effect_pct = 4}}}})
            .size() == 1);
  CHECK(find_regressions(
            c, {.min_effect_pct = 3, .per_metric = {{"hackbench/time", {.alpha = 1e-12}}}})
            .empty());
}

TEST_CASE("one wild sample hides a change from Welch but not from Mann-Whitney") {
  const std::vector<double> slow = {1.20, 1.21, 1.19, 1.20, 1.22, 1.18, 1.20, 1.21};
  const std::vector<double> base = {1.00, 1.01, 0.99, 6.00,
                                    1.02, 0.98, 1.00, 1.01};  // one stray measurement
  const RegressionRule welch{.min_effect_pct = 3};
  RegressionRule mwu = welch;
  mwu.test = "mwu";
  CHECK(find_regressions(comparison(base, slow, Direction::kLowerIsBetter, Test::kWelch), welch)
            .empty());
  // With the median as the centre and the rank test: found.
  CHECK(find_regressions(comparison(base, slow, Direction::kLowerIsBetter, Test::kWelch, "median"),
                         welch)
            .empty());
  const auto found = find_regressions(
      comparison(base, slow, Direction::kLowerIsBetter, Test::kMwu, "median"), mwu);
  REQUIRE(found.size() == 1);
  CHECK(found[0].pct == Approx(-100.0 * (1.20 - 1.005) / 1.005));
  CHECK(found[0].p_value < 0.05);
}
