// The columns `compare` and `report` show: runs by id or name, a
// multi-kernel plan's group, or the latest run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"

namespace schedlab::cli {

// Prints why on stderr ("schedlab COMMAND: no run 'x' in DB") and returns
// nothing for a selection that names nothing.
std::optional<std::vector<ColumnRef>> compare_columns(const Store& store,
                                                      const std::vector<std::string>& runs,
                                                      const std::string& group, bool by_pair,
                                                      const std::string& command);

}  // namespace schedlab::cli
