#include "analysis/stats/mmtests.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "analysis/stats/stats.h"

namespace schedlab::mmtests {
namespace {

// mmtests computes n * p / 100 in floating point and truncates it.
std::size_t best_count(std::size_t n, double percent) {
  const auto count = static_cast<std::size_t>(std::floor(static_cast<double>(n) * percent / 100));
  return std::max<std::size_t>(count, 1);
}

}  // namespace

std::vector<double> best_first(std::span<const double> x, bool higher_is_better) {
  std::vector<double> s(x.begin(), x.end());
  if (higher_is_better)
    std::sort(s.begin(), s.end(), std::greater<>());
  else
    std::sort(s.begin(), s.end());
  return s;
}

std::optional<double> mean(std::span<const double> x, Mean m) {
  if (x.empty()) return std::nullopt;
  return m == Mean::kAmean ? std::optional(stats::amean(x)) : stats::hmean(x);
}

std::optional<double> stddev(std::span<const double> x, Mean m) {
  if (m == Mean::kAmean) return stats::stddev(x);
  const auto h = stats::hmean(x);
  if (!h || x.size() < 2) return std::nullopt;
  double ss = 0;
  for (double v : x) ss += (1 / v - 1 / *h) * (1 / v - 1 / *h);
  return std::sqrt(ss * std::pow(*h, 4) / static_cast<double>(x.size()));
}

std::optional<double> coeffvar(std::span<const double> x, Mean m) {
  const auto s = stddev(x, m);
  const auto mu = mean(x, m);
  if (!s || !mu || *mu == 0) return std::nullopt;
  return *s * 100 / *mu;
}

std::optional<double> best_mean(std::span<const double> x, Mean m, double percent,
                                bool higher_is_better) {
  if (x.empty()) return std::nullopt;
  const auto sorted = best_first(x, higher_is_better);
  const std::size_t count = best_count(sorted.size(), percent);
  return mean(std::span(sorted).first(count), m);
}

std::optional<double> percentile(std::span<const double> x, double percent,
                                 bool higher_is_better) {
  if (x.empty()) return std::nullopt;
  const auto sorted = best_first(x, higher_is_better);
  return sorted[std::min(best_count(sorted.size(), percent), sorted.size()) - 1];
}

double pdiff(double value, double base) {
  if (value == base || value == 0) return 0;
  if (base == 0) return 100;
  return value * 100 / base - 100;
}

double pndiff(double value, double base) {
  if (value == base) return 0;
  if (value == 0) return 100;
  if (base == 0) return -99;
  return 100 - value * 100 / base;
}

bool significant(double mean_a, double s_a, double mean_b, double s_b, double alpha) {
  const double z = stats::normal_quantile(1 - alpha / 2);
  return std::fabs(mean_a - mean_b) > z * (s_a + s_b);
}

}  // namespace schedlab::mmtests
