// What the nightly runner hands to the report: per target and config, its
// status and run. Kept free of the comparison types so runner code that
// sees experiment configs can include it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/nightly/regression_rule.h"

namespace schedlab {

// A target with a config in the report: measured, failed, or not measured
// (interrupted before it, or still measuring when the invocation stopped).
enum class CellStatus { kMeasured, kFailed, kNotMeasured };

constexpr std::string_view to_string(CellStatus s) {
  switch (s) {
    case CellStatus::kMeasured:
      return "measured";
    case CellStatus::kFailed:
      return "failed";
    case CellStatus::kNotMeasured:
      return "not measured";
  }
  return "?";
}

// What the nightly runner knows about one target with one config.
struct NightlyCell {
  std::string target;
  std::string config;  // path
  CellStatus status = CellStatus::kNotMeasured;
  bool new_now = false;  // measured (or resumed) by this invocation
  std::optional<std::int64_t> run_id;
  std::string kernel_release;
  std::string error;  // when failed
  std::int64_t measurement_id = 0;  // its nightly_measurements row (0: none)
  std::string config_sha256;
  // A git:PATH@BRANCH lab target: the repository and the commit the branch
  // was at when the nightly started (both empty for other targets).
  std::string kernel_repo;
  std::string kernel_commit;
};

struct NightlyReportInput {
  std::string name;
  std::vector<std::string> targets;  // in file order
  std::size_t baseline = 0;
  std::vector<std::string> configs;
  std::vector<NightlyCell> cells;  // any order
  RegressionRule rule;
  std::string db;  // the database the nightly used when not the default (--db)
};

}  // namespace schedlab
