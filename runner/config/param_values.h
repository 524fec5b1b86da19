// `name=value` parameter overrides from a command line, typed by the
// workload's ParamSpec rows (as the config loader types them).
#pragma once

#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

// A point with every parameter at its default, then the overrides applied.
// Throws std::invalid_argument naming the bad override.
Point point_from_overrides(const Workload& w, const std::vector<std::string>& overrides);

}  // namespace schedlab
