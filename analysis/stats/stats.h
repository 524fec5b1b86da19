// Summary statistics, intervals and significance tests: pure functions over
// samples. Quantiles and distributions come from Boost.Math; every result
// here is checked against R in tests/analysis/stats/stats_r_test.cc.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace schedlab::stats {

// amean and median of no samples are undefined: they throw
// std::domain_error rather than return a NaN that would print as a number.
double amean(std::span<const double> x);
// Harmonic and geometric means are defined only for positive data (and at
// least one sample); otherwise empty.
std::optional<double> hmean(std::span<const double> x);
std::optional<double> gmean(std::span<const double> x);
double median(std::span<const double> x);
// Sample variance and standard deviation (n - 1). Empty for n < 2.
std::optional<double> variance(std::span<const double> x);
std::optional<double> stddev(std::span<const double> x);

// Quantile functions: p in (0, 1); df > 0 (not necessarily an integer).
double t_quantile(double p, double df);
double normal_quantile(double p);

// A two-sided interval at `level` (e.g. 0.95).
struct Interval {
  double low = 0;
  double high = 0;
};

// Student t interval of the arithmetic mean, as R's t.test(x)$conf.int.
// Empty for n < 2 or zero variance (the interval would be a point).
std::optional<Interval> amean_ci(std::span<const double> x, double level);
// The t interval of the mean of the reciprocals, mapped back through 1/x:
// R's rev(1 / t.test(1 / x)$conf.int). The same delta-method idea as
// mmtests' HStddev, but asymmetric and never negative. Empty when the data
// are not all positive, n < 2, no variance, or the reciprocal interval
// reaches 0 (the harmonic mean is then unbounded above).
std::optional<Interval> hmean_ci(std::span<const double> x, double level);
// The t interval of the mean of the logs, mapped back through exp.
std::optional<Interval> gmean_ci(std::span<const double> x, double level);

// Distribution-free interval of the median from order statistics: the
// sorted values x(l) and x(n+1-l), with l the largest rank such that
// P(Binomial(n, 1/2) <= l - 1) <= (1 - level) / 2. Its actual coverage is
// at least `level`. Empty when n is too small for that level (n < 6 at 95%).
struct MedianInterval {
  Interval ci;
  std::size_t lower_rank = 0;  // 1-based ranks of the bounds
  std::size_t upper_rank = 0;
  double coverage = 0;         // 1 - 2 P(B <= l - 1)
};
std::optional<MedianInterval> median_ci(std::span<const double> x, double level);

struct TTest {
  double t = 0;        // (amean(a) - amean(b)) / standard error of the difference
  double df = 0;       // Welch-Satterthwaite degrees of freedom (not an integer)
  double p_value = 1;  // two-sided
};
// Welch-Satterthwaite degrees of freedom of a difference of two means, from
// each side's squared standard error (variance / n) and sample count.
double welch_df(double se2_a, double n_a, double se2_b, double n_b);

// Welch's unequal-variance t-test. Empty when either side has n < 2, or
// both sides have zero variance (the test is undefined).
std::optional<TTest> welch_t_test(std::span<const double> a, std::span<const double> b);

// Mann-Whitney U (Wilcoxon rank-sum) test, two-sided, following R's
// wilcox.test(a, b) defaults: the exact distribution when both sides have
// fewer than 50 samples and there are no ties; otherwise the normal
// approximation with tie correction and continuity correction.
enum class MwuMethod { kAuto, kExact, kNormal };
struct MwuTest {
  double w = 0;        // R's W: rank sum of a minus na (na + 1) / 2
  double p_value = 1;  // two-sided
  bool exact = false;  // which method was used
  bool ties = false;
};
// Empty when either side is empty, or (normal approximation) every value is
// the same. kExact with ties is refused (empty), as the exact distribution
// assumes none.
std::optional<MwuTest> mann_whitney(std::span<const double> a, std::span<const double> b,
                                    MwuMethod method = MwuMethod::kAuto);

// Fieller's interval for the ratio of two independent means mu_b / mu_a,
// from the means, their squared standard errors and a t quantile: the set of
// rho with (mb - rho ma)^2 <= t^2 (vb + rho^2 va). Empty when the baseline
// mean is not significantly different from 0 (the set is then unbounded).
std::optional<Interval> fieller_ratio(double ma, double va, double mb, double vb, double t);

}  // namespace schedlab::stats
