#include "analysis/stats/domain.h"

namespace schedlab {
namespace {

// Raises an end below floor to floor; true when it did.
bool raise_to(double& end, double floor) {
  if (!(end < floor)) return false;
  end = floor;
  return true;
}

// Lowers an end above ceiling to ceiling; true when it did.
bool lower_to(double& end, double ceiling) {
  if (!(end > ceiling)) return false;
  end = ceiling;
  return true;
}

}  // namespace

DomainCut cut_to_domain(stats::Interval& ci, ValueDomain d) {
  if (d != ValueDomain::kNonNegative) return {};
  // An interval wholly below 0 (never for a centre of values >= 0) becomes
  // the point 0, still an interval.
  return {.low = raise_to(ci.low, 0), .high = raise_to(ci.high, 0)};
}

DomainCut cut_pct_to_domain(stats::Interval& pct, ValueDomain d, bool higher_is_better) {
  if (d != ValueDomain::kNonNegative) return {};
  if (higher_is_better) return {.low = raise_to(pct.low, -100), .high = raise_to(pct.high, -100)};
  return {.low = lower_to(pct.low, 100), .high = lower_to(pct.high, 100)};
}

std::string domain_text(ValueDomain d) {
  return d == ValueDomain::kNonNegative ? "values >= 0" : "";
}

}  // namespace schedlab
