// The plan: variants x workloads x parameter points x iterations, expanded
// from a validated config into the order the executor follows.
#pragma once

#include <string>
#include <vector>

#include "runner/config/config.h"

namespace schedlab {

struct PlanPoint {
  const WorkloadConfig* workload = nullptr;
  Point point;
  std::string block;        // table label
  std::string row;          // row label
  int row_order = 0;        // row position within the block
  std::string params_json;  // every parameter, canonical (sorted keys)
  std::size_t workload_index = 0;  // into Config::workloads
  IterationPolicy iterations;
  std::string describe() const;  // "hackbench-process-pipes groups=4"
};

// The executor walks the points in order; at each point every variant gets
// its iterations, interleaved (A B A B ...) or sequential (A A B B), until
// its IterationPolicy says stop.
struct Plan {
  std::vector<PlanPoint> points;
  std::size_t variants = 0;
  Order order = Order::kInterleaved;
  // Upper bound of measured iterations (adaptive points may stop earlier).
  std::size_t max_iterations() const;
};

Plan expand_plan(const Config& config);

// A parameter's value as params_json holds it, as text: a string as it is,
// anything else as JSON (4, 1.5, true; a duration is the string "30s").
std::string stored_param_text(const ParamValue& v);

}  // namespace schedlab
