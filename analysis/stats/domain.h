// Intervals cut to the values a metric can take (base/metric_vocabulary.h's
// ValueDomain). Three hackbench times 0.100, 0.104 and 5.000 s give Student's
// interval [-5.29, 8.76] s; a time is never below 0, so the interval is
// [0, 8.76] s. Cutting keeps the coverage at least the stated level: the
// true value lies in the domain, so whenever the interval covers it, the
// cut interval does too. Every cut is recorded, so every renderer says so.
#pragma once

#include <string>

#include "analysis/stats/stats.h"
#include "base/metric_vocabulary.h"

namespace schedlab {

// Which ends of an interval were cut to the domain.
struct DomainCut {
  bool low = false;
  bool high = false;
  explicit operator bool() const { return low || high; }
};

// ci intersected with the domain of the centre's values: a nonnegative
// metric's interval starts at 0 at the lowest.
DomainCut cut_to_domain(stats::Interval& ci, ValueDomain d);

// The interval of a % change (pct_better: positive is better) intersected
// with what the change can be: for a nonnegative metric the ratio new /
// base is >= 0, so the change is >= -100% when higher is better and
// <= +100% when lower is better.
DomainCut cut_pct_to_domain(stats::Interval& pct, ValueDomain d, bool higher_is_better);

// The domain in words for notes: "values >= 0"; "" for kUnbounded.
std::string domain_text(ValueDomain d);

}  // namespace schedlab
