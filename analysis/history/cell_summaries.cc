#include "analysis/history/cell_summaries.h"

#include <nlohmann/json.hpp>

#include "analysis/compare/compare.h"

namespace schedlab {

std::string params_text(const std::map<std::string, std::string>& params, const std::string& swept) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : params)
    if (k != swept) j[k] = v;
  return j.dump();  // keys sorted: one text per set
}

void summarise_cells(std::span<const IterationRow> iterations,
                     const std::vector<VariantInfo>& variants, const MetricInfo& metric,
                     std::vector<CellSummary>& out) {
  if (iterations.empty()) return;
  const std::int64_t run = iterations.front().run_id;
  // One column per variant through compare's core: a summary is the cell
  // `schedlab compare RUN` prints for that variant.
  for (const auto& v : variants) {
    const ColumnData column{{.run_id = run, .variant_id = v.id}, iterations, std::span(&metric, 1)};
    for (const auto& b : compare_blocks({column})) {
      for (const auto& r : b.rows) {
        const Cell& cell = r.cells.front();
        if (cell.n == 0 && cell.failed == 0) continue;  // this variant never ran the row
        out.push_back({.run_id = run,
                       .variant_id = v.id,
                       .variant = v.name,
                       .block = b.name,
                       .row = r.label,
                       .n = static_cast<std::int64_t>(cell.n),
                       .centre = cell.centre,
                       .ci_low = cell.ci.ci ? std::optional(cell.ci.ci->low) : std::nullopt,
                       .ci_high = cell.ci.ci ? std::optional(cell.ci.ci->high) : std::nullopt,
                       .ci_reason = cell.ci.reason,
                       .params = params_text(cell.params, b.swept)});
      }
    }
  }
}

}  // namespace schedlab
