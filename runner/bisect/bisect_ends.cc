#include "runner/bisect/bisect_ends.h"

#include "analysis/compare/changed.h"
#include "analysis/stats/significance.h"
#include "base/json_data.h"
#include "workloads/registry.h"

namespace schedlab {

std::optional<BisectEnds> bisect_ends(const Store& store, const BisectSpec& spec,
                                      const nlohmann::json& result,
                                      const std::vector<BisectDecision>& decisions) {
  const std::size_t first_bad = result.at("first_bad"), last_good = result.at("last_good");
  auto first_run = [&](std::size_t pos) -> std::optional<std::int64_t> {
    for (const auto& d : decisions)
      if (d.position == static_cast<int>(pos))
        if (const auto ids = require_json_data(d.run_ids_json, "a bisect step's run ids")
                                 .get<std::vector<std::int64_t>>();
            !ids.empty())
          return ids.front();
    return std::nullopt;
  };
  const auto a = first_run(last_good), b = first_run(first_bad);
  if (!a || !b) return std::nullopt;
  std::vector<ColumnRef> cols;
  for (const auto& [run, label] : {std::pair{*a, "last-good"}, std::pair{*b, "first-bad"}}) {
    auto c = default_columns(store, {run}).front();
    c.label = label;
    cols.push_back(c);
  }
  BisectEnds out{.last_good_run = *a, .first_bad_run = *b};
  out.comparison = compare(
      store, cols,
      {.alpha = spec.alpha, .test = *test_from_name(spec.test), .known_domain = declared_domain});
  // Welch's t-test for the counters whatever the bisection's test, as
  // nightly's (analysis/nightly/nightly_report.cc says why).
  out.comparison.changed = what_changed(store, out.comparison, {.test = Test::kWelch});
  return out;
}

}  // namespace schedlab
