// The two candidates a finished bisection ends on, compared: the first
// batch run of the last good (column "last-good") against that of the first
// bad ("first-bad"), every metric of the config, at the bisection's test,
// with "what changed" between them. `bisect status` prints it as text, its
// page (bisect_page.h) as report shows a comparison, flame graphs included.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "analysis/compare/compare.h"
#include "results/bisect_log.h"
#include "results/store.h"
#include "runner/bisect/bisect_spec.h"

namespace schedlab {

struct BisectEnds {
  std::int64_t last_good_run = 0, first_bad_run = 0;
  Comparison comparison;
};

// `result` is a done session's result JSON (first_bad, last_good); none
// when either end has no run (a reference decided without one).
std::optional<BisectEnds> bisect_ends(const Store& store, const BisectSpec& spec,
                                      const nlohmann::json& result,
                                      const std::vector<BisectDecision>& decisions);

}  // namespace schedlab
