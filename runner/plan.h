// The plan: variants x workloads x parameter points x iterations, expanded
// from a validated config into the order the executor follows.
#pragma once

#include <string>
#include <vector>

#include "runner/config.h"

namespace schedlab {

struct PlanPoint {
  const WorkloadConfig* workload = nullptr;
  Point point;
  std::string block;        // table label
  std::string row;          // row label
  int row_order = 0;        // row position within the block
  std::string params_json;  // every parameter, canonical (sorted keys)
  int iterations = 0;
  std::string describe() const;  // "hackbench-process-pipes groups=4"
};

struct PlanItem {
  std::size_t variant = 0;  // index into Config::variants
  std::size_t point = 0;    // index into Plan::points
  int iteration = 0;        // 0-based
};

struct Plan {
  std::vector<PlanPoint> points;
  // Execution order. Variant-major: a variant's knobs are applied once, all
  // its points run, then they are restored before the next variant.
  std::vector<PlanItem> items;
};

Plan expand_plan(const Config& config);

}  // namespace schedlab
