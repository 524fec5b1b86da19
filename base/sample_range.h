// The range a sample (a number a workload measured, or one read from a
// sample file, an import or a database) must lie in before any statistic
// sees it. One bound for every entry, so that what one entry accepts no
// other refuses, and every statistic schedlab computes stays finite.
#pragma once

#include <optional>
#include <string>

namespace schedlab {

// |x| <= 1e150, and x == 0 or |x| >= 1e-150. Why these: a sum of squares
// of n samples is at most n * (2e150)^2 = n * 4e300, finite (below
// DBL_MAX, 1.8e308) for n up to 4e7 samples a cell, far past any run; a
// reciprocal (hmean, its interval) of a sample above 1e-150 is below 1e150,
// so the same holds for it. No clock, counter or rate a benchmark reports
// comes near either bound; a value past them is a parser's or a crafted
// input's, not a measurement.
inline constexpr double kSampleMax = 1e150;
inline constexpr double kSampleMinNonZero = 1e-150;

// Why x is no sample schedlab accepts ("inf is not finite", "1e+308 is
// outside +-1e150"), or nothing when it is one.
std::optional<std::string> sample_out_of_range(double x);

// Why x is no count (an event's or counter's number over an iteration:
// never negative, "-0" included), else sample_out_of_range's reason, or
// nothing when it is one.
std::optional<std::string> count_out_of_range(double x);

// Why x is no share in percent (a perf profile's self or children share of
// all samples: 0 to 100, with 1e-9 past 100 for a division's rounding), or
// nothing when it is one.
std::optional<std::string> share_out_of_range(double x);

inline bool sample_in_range(double x) {
  return !sample_out_of_range(x);
}

}  // namespace schedlab
