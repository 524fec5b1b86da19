// The plan: variants x workloads x parameter points x iterations, expanded
// from a validated config into the order the executor follows. A plan
// points into its config (workloads, variants): the config outlives it.
#pragma once

#include <optional>
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
  // The variants run, in config order (into Config::variants): every one,
  // or those that apply to one lab kernel. The first is the baseline.
  std::vector<const VariantConfig*> variants;
  Order order = Order::kInterleaved;
  // Upper bound of measured iterations (adaptive points may stop earlier).
  std::size_t max_iterations() const;
  // Lower bound (what adaptive points run at least; max_iterations when fixed).
  std::size_t min_iterations() const;
};

// Whether a variant runs on a lab kernel (by the spec as the config spells it).
bool variant_applies(const VariantConfig& v, const std::string& kernel);

struct PlanOptions {
  // Only the variants that apply to this lab kernel (none may be left).
  std::optional<std::string> kernel;
  // `schedlab run --iterations N`: a fixed count for every point, in place
  // of the config's counts and adaptive policies.
  std::optional<int> iterations;
};

Plan expand_plan(const Config& config, const PlanOptions& options = {});
Plan expand_plan(const Config&& config,
                 const PlanOptions& options = {}) = delete;  // it would dangle

// A parameter's value as params_json holds it, as text: a string as it is,
// anything else as JSON (4, 1.5, true; a duration is the string "30s").
std::string stored_param_text(const ParamValue& v);

}  // namespace schedlab
