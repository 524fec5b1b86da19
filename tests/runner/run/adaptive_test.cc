#include "runner/run/adaptive.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis/compare/compare.h"

using namespace schedlab;

TEST_CASE("the CI half-width matches a hand computation") {
  // mean 10, s = 1 (values 9, 10, 11), n = 3: t(0.975, 2) = 4.302652729749464
  // half-width = 4.302652729749464 * 1 / sqrt(3) = 2.4841377118...; 24.84% of 10.
  const std::vector<double> x = {9, 10, 11};
  CHECK(*ci_halfwidth_pct(x, Centre::kAmean) == Approx(24.841377118).epsilon(1e-9));
  // Harmonic mean: the t interval of the reciprocals (10 +- 2.4841377118) mapped back
  // through 1/x, [1/12.4841377118, 1/7.5158622882]: half its width, as a percentage of
  // the hmean 0.1, is 26.4751423096.
  const std::vector<double> rates = {1.0 / 9, 1.0 / 10, 1.0 / 11};
  CHECK(*ci_halfwidth_pct(rates, Centre::kHmean) == Approx(26.4751423096).epsilon(1e-9));
  CHECK_FALSE(ci_halfwidth_pct(std::vector<double>{5}, Centre::kAmean));
  CHECK(*ci_halfwidth_pct(std::vector<double>{5, 5, 5}, Centre::kAmean) == 0);
}

TEST_CASE("a fixed count stops at its count") {
  IterationPolicy fixed{.min = 3, .max = 3};
  CHECK_FALSE(should_stop(fixed, std::vector<double>{1, 2}, 2, Centre::kAmean).stop);
  const auto d = should_stop(fixed, std::vector<double>{1, 2, 3}, 3, Centre::kAmean);
  CHECK(d.stop);
  CHECK(d.reason == "fixed");
}

TEST_CASE("adaptive iterations stop at the interval, the maximum, or on failure") {
  IterationPolicy p{.min = 3, .max = 6, .ci_width_pct = 2.0};
  // Tight data: stops as soon as min is reached.
  auto d = should_stop(p, std::vector<double>{100, 100.1, 99.9}, 3, Centre::kAmean);
  CHECK(d.stop);
  CHECK(d.reason == "ci_reached");
  CHECK(*d.halfwidth_pct < 2);
  // Tight, but fewer than min.
  CHECK_FALSE(should_stop(p, std::vector<double>{100, 100.1}, 2, Centre::kAmean).stop);
  // Noisy: goes on until max.
  CHECK_FALSE(should_stop(p, std::vector<double>{50, 100, 150}, 3, Centre::kAmean).stop);
  d = should_stop(p, std::vector<double>{50, 100, 150, 60, 140, 90}, 6, Centre::kAmean);
  CHECK(d.stop);
  CHECK(d.reason == "max_reached");
  // Nothing succeeded after min attempts: no point going on.
  d = should_stop(p, std::vector<double>{}, 3, Centre::kAmean);
  CHECK(d.stop);
  CHECK(d.reason == "failed");
}

TEST_CASE("the stop rule's half-width is the interval compare reports, for every centre") {
  // Eight samples: enough for a 95% order-statistics interval of the median.
  const std::vector<double> x = {10.2, 9.7, 10.9, 10.1, 9.4, 10.6, 11.3, 9.9};
  for (const Centre centre : {Centre::kAmean, Centre::kHmean, Centre::kGmean, Centre::kMedian}) {
    INFO(to_string(centre));
    const MetricInfo metric{
        "w", "m", "s", Direction::kLowerIsBetter, std::string(to_string(centre)), SampleKind::kRun,
        4};
    const Comparison c = compare_samples({{"a", x}}, metric);
    const Cell& cell = c.blocks.at(0).rows.at(0).cells.at(0);
    REQUIRE(cell.ci.ci);
    REQUIRE(cell.centre);
    const double reported =
        (cell.ci.ci->high - cell.ci.ci->low) / 2 / std::fabs(*cell.centre) * 100;
    const auto halfwidth = ci_halfwidth_pct(x, centre);
    REQUIRE(halfwidth);
    CHECK(*halfwidth == Approx(reported).epsilon(1e-12));
  }
  // Too few samples for a median interval: compare reports none, the rule never stops on it.
  const std::vector<double> five = {10.2, 9.7, 10.9, 10.1, 9.4};
  CHECK_FALSE(ci_halfwidth_pct(five, Centre::kMedian));
  CHECK(ci_halfwidth_pct(five, Centre::kAmean));
}
