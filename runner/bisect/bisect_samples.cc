#include "runner/bisect/bisect_samples.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/compare/analyse.h"
#include "analysis/stats/summary.h"
#include "base/json_data.h"
#include "results/iterations_table.h"
#include "results/variants_table.h"

namespace schedlab {

using nlohmann::json;

namespace {

// spec.params are written as the store writes them (set_bisect_config).
bool params_match(const BisectSpec& spec, const std::string& params_json) {
  const json p = require_json_data(params_json, "a stored params_json");
  for (const auto& [name, want] : spec.params) {
    if (!p.contains(name)) return false;
    const json& v = p[name];
    if ((v.is_string() ? v.get<std::string>() : v.dump()) != want) return false;
  }
  return true;
}

}  // namespace

Direction bisect_metric_direction(const MetricsTable& metrics, const BisectSpec& spec,
                                  const std::vector<std::int64_t>& runs) {
  for (const auto run : runs)
    for (const auto& m : metrics.metrics(run))
      if (m.name == spec.metric) return m.direction;
  return Direction::kLowerIsBetter;
}

Centre bisect_metric_centre(const MetricsTable& metrics, const BisectSpec& spec,
                            const std::vector<std::int64_t>& runs) {
  for (const auto run : runs)
    for (const auto& m : metrics.metrics(run))
      if (m.name == spec.metric) return declared_centre(m);
  return Centre::kAmean;
}

std::vector<double> bisect_samples(const Store& store, const BisectSpec& spec,
                                   const std::vector<std::int64_t>& runs) {
  std::vector<double> out;
  std::vector<std::string> points;
  for (const auto run : runs) {
    const auto variants = store.variants_table().variants(run);
    if (variants.empty()) continue;
    std::optional<Centre> interval_centre;
    for (const auto& m : store.metrics_table().metrics(run))
      if (m.name == spec.metric && m.kind == SampleKind::kInterval)
        interval_centre = declared_centre(m);
    for (const auto& it : store.iterations_table().iterations(run)) {
      if (it.variant_id != variants.front().id || it.status != IterationStatus::kOk) continue;
      if (!params_match(spec, it.params_json)) continue;
      std::vector<double> values;
      for (const auto& s : it.samples)
        if (s.metric == spec.metric) values.push_back(s.value);
      if (values.empty()) continue;
      const std::string point = it.block + "/" + it.row;
      if (std::find(points.begin(), points.end(), point) == points.end()) points.push_back(point);
      if (interval_centre) {
        if (auto c = centre_of(values, *interval_centre)) out.push_back(*c);
      } else {
        out.insert(out.end(), values.begin(), values.end());
      }
    }
  }
  if (points.size() > 1)
    throw BisectError(fmt::format(
        "metric '{}' is measured at several points ({}); pick one with --param NAME=VALUE",
        spec.metric, fmt::join(points, ", ")));
  return out;
}

}  // namespace schedlab
