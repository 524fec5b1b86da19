// One column against the baseline: the percentage change (mmtests'
// convention, positive is better), its confidence interval, and the p-value
// of the chosen test.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/stats/domain.h"
#include "analysis/stats/stats.h"
#include "analysis/stats/summary.h"

namespace schedlab {

enum class Test { kWelch, kMwu };
std::optional<Test> test_from_name(std::string_view name);  // "welch" | "mwu"
std::string_view test_name(Test t);
std::string_view test_title(Test t);  // e.g. "Welch's t-test"
// Every test's name, in the table's order: what a --test option or a
// config's test key accepts.
std::vector<std::string> test_names();

// Change of x against base in percent, positive is better whatever the
// direction; |base| keeps that true for a negative baseline. Empty when
// either is empty or base is 0.
std::optional<double> pct_better(bool higher_is_better, std::optional<double> base,
                                 std::optional<double> x);

// A p-value, or why there is none.
struct PValue {
  std::optional<double> p;
  std::string reason;
};
// Two-sided p-value of the test on the two samples. Welch needs n >= 2 on
// both sides and some variance; Mann-Whitney needs n >= 1 and, when the
// normal approximation applies, not every value equal.
PValue p_value(Test t, std::span<const double> base, std::span<const double> x);

// The interval of pct_better at `level`, or why there is none. For amean
// (and the reciprocals for hmean) it is Fieller's interval for the ratio of
// two means with Welch's degrees of freedom; for gmean, Welch's interval for
// the difference of mean logs, exponentiated. Needs n >= 2 on both sides and
// a positive baseline centre; the median has none.
//
// For a metric whose values are >= 0 (ValueDomain::kNonNegative) the ratio of
// the centres is >= 0 too, so Fieller's confidence set is cut to it: an
// interval reaching below a ratio of 0 (a change past -100% when higher is
// better, past +100% when lower is) is cut there (`cut` says which end of
// the % interval), and a set that is unbounded (a baseline too noisy) and
// stays so within the domain has no interval, its reason naming the one
// bound that holds.
struct PctInterval {
  std::optional<stats::Interval> ci;
  std::string reason;
  DomainCut cut;
};
PctInterval pct_interval(Centre centre, bool higher_is_better, std::span<const double> base,
                         std::span<const double> x, double level,
                         ValueDomain domain = ValueDomain::kUnbounded);

}  // namespace schedlab
