// The nightly regression rule: a change is a regression when the test calls
// it significant, it is at least the minimum effect, and it goes the bad
// way. Cells already carry the signed change (positive is better) and the
// p-value, so the rule only reads a Comparison.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/nightly/regression_rule.h"

namespace schedlab {

// One bad change found in a comparison.
struct Regression {
  std::string workload;
  std::string block;  // e.g. hackbench-process-pipes
  std::string metric;
  std::string unit;
  std::string row;         // the row label, e.g. "4"
  std::size_t column = 0;  // the regressed column (the baseline is 0)
  double base_centre = 0, centre = 0;
  double pct = 0;  // negative: worse
  double p_value = 1;
  double alpha = 0.05, min_effect_pct = 0;  // as applied
};

// Every cell of every column other than the baseline that the rule calls a
// regression, in block, row, column order. Uses each cell's own p-value
// against the rule's alpha for its metric (not the comparison's `*`).
std::vector<Regression> find_regressions(const Comparison& c, const RegressionRule& rule);

}  // namespace schedlab
