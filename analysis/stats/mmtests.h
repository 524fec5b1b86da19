// mmtests' own statistics, reproduced so `--mmtests` output matches what
// mmtests prints (bin/lib/MMTests/Stat.pm and Summarise.pm define them; this
// is an independent implementation of the formulas, not their code).
//
// mmtests sorts a group best-first (ascending when lower is better,
// descending when higher is better), takes the harmonic mean when higher is
// better and the arithmetic mean otherwise, and marks a difference when the
// two "confidence intervals" mean +- z * stddev do not overlap.
#pragma once

#include <optional>
#include <span>
#include <vector>

namespace schedlab::mmtests {

enum class Mean { kAmean, kHmean };
// mmtests picks the mean from the direction alone.
inline Mean mean_for(bool higher_is_better) {
  return higher_is_better ? Mean::kHmean : Mean::kAmean;
}

// A copy of x sorted best-first.
std::vector<double> best_first(std::span<const double> x, bool higher_is_better);

// amean, or hmean (empty unless every sample is positive); empty for n = 0.
std::optional<double> mean(std::span<const double> x, Mean m);
// Stddev: the n - 1 sample standard deviation. HStddev: the delta-method
// standard deviation of the harmonic mean H, sqrt(H^4 / n * sum (1/x - 1/H)^2)
// (note /n, not n - 1). Empty for n < 2, or hmean of non-positive data.
std::optional<double> stddev(std::span<const double> x, Mean m);
// CoeffVar / HCoeffVar: stddev * 100 / mean. Empty when either is.
std::optional<double> coeffvar(std::span<const double> x, Mean m);
// BAmean-p / BHmean-p: the mean of the best floor(n * p / 100) samples (at
// least one).
std::optional<double> best_mean(std::span<const double> x, Mean m, double percent,
                                bool higher_is_better);
// Percentile p on best-first data: the sample at 1-based rank
// max(1, floor(n * p / 100)).
std::optional<double> percentile(std::span<const double> x, double percent,
                                 bool higher_is_better);

// mmtests' percentage differences of a value against the baseline. pdiff
// (higher is better): new * 100 / base - 100; pndiff (lower is better, and
// every spread statistic): 100 - new * 100 / base. Their special cases for
// zeros are kept, as mmtests prints them.
double pdiff(double value, double base);
double pndiff(double value, double base);

// mmtests' marker: |mean_a - mean_b| > z * (s_a + s_b), z the standard
// normal quantile at 1 - alpha / 2 (1.959964 for mmtests' fixed alpha 0.05).
bool significant(double mean_a, double s_a, double mean_b, double s_b, double alpha = 0.05);

}  // namespace schedlab::mmtests
