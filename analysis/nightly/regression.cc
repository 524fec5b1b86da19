#include "analysis/nightly/regression.h"

#include <cmath>

namespace schedlab {
namespace {

const MetricRule* find_rule(const RegressionRule& r, const std::string& workload,
                            const std::string& metric) {
  if (auto it = r.per_metric.find(workload + "/" + metric); it != r.per_metric.end())
    return &it->second;
  if (auto it = r.per_metric.find(metric); it != r.per_metric.end()) return &it->second;
  return nullptr;
}

}  // namespace

double RegressionRule::alpha_for(const std::string& workload, const std::string& metric) const {
  const MetricRule* m = find_rule(*this, workload, metric);
  return m && m->alpha ? *m->alpha : alpha;
}

double RegressionRule::min_effect_for(const std::string& workload,
                                      const std::string& metric) const {
  const MetricRule* m = find_rule(*this, workload, metric);
  return m && m->min_effect_pct ? *m->min_effect_pct : min_effect_pct;
}

std::vector<Regression> find_regressions(const Comparison& c, const RegressionRule& rule) {
  std::vector<Regression> found;
  for (const auto& block : c.blocks) {
    const double alpha = rule.alpha_for(block.workload, block.metric.name);
    const double min_effect = rule.min_effect_for(block.workload, block.metric.name);
    for (const auto& row : block.rows) {
      if (row.cells.empty()) continue;
      const Cell& base = row.cells.front();
      for (std::size_t col = 1; col < row.cells.size(); ++col) {
        const Cell& cell = row.cells[col];
        // No p-value or no change: nothing can be claimed (the report shows
        // why), never a silent "no regression" from a NaN.
        if (!cell.pct || !cell.p_value || !std::isfinite(*cell.pct) ||
            !std::isfinite(*cell.p_value))
          continue;
        if (*cell.p_value >= alpha || *cell.pct > -min_effect) continue;
        // Measured with other parameters than its baseline: a change of
        // parameters is never judged as a change of the kernel (the report
        // marks the cell and "What differs" names the parameters).
        if (!cell.unlike_baseline.empty()) continue;
        found.push_back({.workload = block.workload,
                         .block = block.name,
                         .metric = block.metric.name,
                         .unit = block.metric.unit,
                         .row = row.label,
                         .column = col,
                         .base_centre = base.centre.value_or(NAN),
                         .centre = cell.centre.value_or(NAN),
                         .pct = *cell.pct,
                         .p_value = *cell.p_value,
                         .alpha = alpha,
                         .min_effect_pct = min_effect});
      }
    }
  }
  return found;
}

}  // namespace schedlab
