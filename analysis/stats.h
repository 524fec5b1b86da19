// Summary statistics and significance tests: pure functions over samples.
#pragma once

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
// Sample standard deviation (n - 1). Empty for n < 2.
std::optional<double> stddev(std::span<const double> x);

struct TTest {
  double t = 0;        // (amean(a) - amean(b)) / standard error of the difference
  double df = 0;       // Welch-Satterthwaite degrees of freedom (not an integer)
  double p_value = 1;  // two-sided
};
// Welch's unequal-variance t-test. Empty when either side has n < 2, or
// both sides have zero variance (the test is undefined).
std::optional<TTest> welch_t_test(std::span<const double> a, std::span<const double> b);

}  // namespace schedlab::stats
