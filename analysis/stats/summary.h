// The summary of one group of samples (run, variant, workload, parameter,
// metric): every statistic a report prints about it, each either a number
// or the reason it has none. Nothing here is NaN.
#pragma once

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analysis/stats/domain.h"
#include "analysis/stats/stats.h"
#include "base/centre.h"

namespace schedlab {

// A statistic that the data may not define: then `value` is empty and
// `reason` says why (printed as "n/a" in tables, null plus the reason in
// JSON).
// A value that is not finite (data near a double's limits that overflow
// on the way) is no value either: n/a with kOverflow as its reason.
struct Stat {
  std::optional<double> value;
  std::string reason;

  static constexpr std::string_view kOverflow =
      "not finite: the computation overflows a double's range";
  static Stat of(double v) {
    return std::isfinite(v) ? Stat{v, {}} : Stat{std::nullopt, std::string(kOverflow)};
  }
  static Stat of(std::optional<double> v, std::string why_not) {
    return v ? of(*v) : Stat{std::nullopt, std::move(why_not)};
  }
  static Stat none(std::string why) { return {std::nullopt, std::move(why)}; }
  explicit operator bool() const { return value.has_value(); }
};

// The centre of x; empty for no samples, or hmean/gmean of data that are not
// all positive.
std::optional<double> centre_of(std::span<const double> x, Centre c);

// An interval of the centre, with how it was obtained.
struct CentreInterval {
  std::optional<stats::Interval> ci;
  double level = 0.95;
  std::string method;  // "student-t", "t on reciprocals", "t on logs", "order statistics"
  std::string reason;  // why `ci` is empty
  // The ends cut to the metric's domain (analysis/stats/domain.h); `ci` is the
  // cut interval.
  DomainCut cut;
};

struct Summary {
  std::size_t n = 0;
  // Empty only when n == 0 (the reasons say "no samples").
  Stat min, max, median, amean;
  Stat gmean, hmean;  // not defined for zero or negative data
  Stat stddev;        // n - 1; needs n >= 2
  Stat coefvar;       // stddev / amean * 100; needs n >= 2 and amean != 0
  Centre centre = Centre::kAmean;
  Stat centre_value;  // the declared centre, one of the above
  CentreInterval ci;  // of the centre at the requested level
};

// Summarises x. level is the confidence level of the interval, in (0, 1).
Summary summarize(std::span<const double> x, Centre centre, double level = 0.95);

// The centre's interval alone (used for interval metrics, whose interval
// comes from per-iteration means rather than from every sample).
CentreInterval centre_interval(std::span<const double> x, Centre centre, double level);

}  // namespace schedlab
