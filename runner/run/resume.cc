#include "runner/run/resume.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "runner/run/adaptive.h"
#include "runner/run/run_context.h"

namespace schedlab {

std::vector<std::int64_t> stored_variant_ids(const VariantsTable& variants, std::int64_t run_id,
                                             const Plan& plan) {
  std::vector<std::int64_t> ids;
  const auto stored = variants.variants(run_id);
  for (const VariantConfig* v : plan.variants) {
    auto it =
        std::find_if(stored.begin(), stored.end(), [&](auto& s) { return s.name == v->name; });
    if (it == stored.end())
      throw PreflightError(fmt::format("run {} has no variant '{}'", run_id, v->name));
    ids.push_back(it->id);
  }
  return ids;
}

std::map<PointKey, PointState> stored_point_states(const IterationsTable& iterations,
                                                   std::int64_t run_id, const Plan& plan,
                                                   const std::string& pair) {
  // (workload, point) -> the metric its stop rule follows
  std::map<std::pair<std::string, std::string>, const MetricSpec*> primary;
  for (const auto& p : plan.points)
    primary[{p.workload->workload->name(), p.params_json}] =
        &p.workload->workload->primary_metric(p.point);
  std::map<PointKey, PointState> states;
  for (const auto& it : iterations.iterations(run_id)) {
    if (it.pair != pair) continue;  // each pair resumes its own points
    PointState& s = states[{it.variant_id, it.workload, it.params_json}];
    ++s.attempted;
    s.next_index = std::max(s.next_index, it.iteration + 1);
    const auto metric = primary.find({it.workload, it.params_json});
    if (it.status != IterationStatus::kOk || metric == primary.end()) continue;
    if (const auto unit = iteration_unit(*metric->second, it.samples)) s.ok.push_back(*unit);
  }
  return states;
}

std::map<PointKey, PointStop> stored_point_stops(const PointStopsTable& table,
                                                 std::int64_t run_id) {
  std::map<PointKey, PointStop> stops;
  for (auto& stop : table.point_stops(run_id))
    stops[{stop.variant_id, stop.workload, stop.params_json}] = std::move(stop);
  return stops;
}

}  // namespace schedlab
