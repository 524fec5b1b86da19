// What the nightly runner hands to the report: per target and config, its
// status and run. Kept free of the comparison types so runner code that
// sees experiment configs can include it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/regression_rule.h"

namespace schedlab {

// What the nightly runner knows about one target with one config.
struct NightlyCell {
  std::string target;
  std::string config;    // path
  std::string status;    // measured | failed | not measured (interrupted before it)
  bool new_now = false;  // measured (or resumed) by this invocation
  std::optional<std::int64_t> run_id;
  std::string kernel_release;
  std::string error;  // when failed
};

struct NightlyReportInput {
  std::string name;
  std::vector<std::string> targets;  // in file order
  std::size_t baseline = 0;
  std::vector<std::string> configs;
  std::vector<NightlyCell> cells;  // any order
  RegressionRule rule;
};

}  // namespace schedlab
