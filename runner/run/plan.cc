#include "runner/run/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace schedlab {
namespace {

nlohmann::json to_json(const ParamValue& v) {
  if (auto i = std::get_if<std::int64_t>(&v)) return *i;
  if (auto s = std::get_if<std::string>(&v)) return *s;
  if (auto b = std::get_if<bool>(&v)) return *b;
  if (auto d = std::get_if<double>(&v)) return *d;
  return format_param(v);
}

// Cartesian product of the swept parameters in the workload's declaration
// order: block parameters vary slowest, so each table's rows stay together.
void expand(const WorkloadConfig& wc, std::size_t workload_index, const PlanOptions& options,
            std::vector<PlanPoint>& out) {
  const auto& specs = wc.workload->params();
  std::vector<const ParamSpec*> order;
  for (const auto& s : specs)
    if (s.axis == Axis::kBlock) order.push_back(&s);
  for (const auto& s : specs)
    if (s.axis != Axis::kBlock) order.push_back(&s);

  std::vector<std::size_t> index(order.size(), 0);
  // Row position: mixed-radix number over the row parameters only.
  while (true) {
    PlanPoint pp;
    pp.workload = &wc;
    nlohmann::json params = nlohmann::json::object();
    int row_order = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const auto& values = wc.values.at(order[k]->name);
      pp.point.values[order[k]->name] = values[index[k]];
      params[order[k]->name] = to_json(values[index[k]]);
      if (order[k]->axis == Axis::kRow)
        row_order = row_order * static_cast<int>(values.size()) + static_cast<int>(index[k]);
    }
    pp.block = wc.workload->block_label(pp.point);
    pp.row = wc.workload->row_label(pp.point);
    pp.row_order = row_order;
    pp.params_json = params.dump();  // nlohmann sorts object keys
    pp.iterations = wc.iterations;
    if (options.iterations)
      pp.iterations = {.min = *options.iterations, .max = *options.iterations};
    pp.workload_index = workload_index;
    out.push_back(std::move(pp));

    // Advance the odometer, last parameter fastest.
    std::size_t k = order.size();
    while (k > 0) {
      --k;
      if (++index[k] < wc.values.at(order[k]->name).size()) break;
      index[k] = 0;
      if (k == 0) return;
    }
    if (order.empty()) return;
  }
}

}  // namespace

std::string stored_param_text(const ParamValue& v) {
  const nlohmann::json j = to_json(v);
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::string PlanPoint::describe() const {
  std::string s = block;
  for (const auto& spec : workload->workload->params())
    if (spec.axis == Axis::kRow) s += fmt::format(" {}={}", spec.name, format_param(point.at(spec.name)));
  return s;
}

std::size_t Plan::max_iterations() const {
  std::size_t n = 0;
  for (const auto& p : points) n += static_cast<std::size_t>(p.iterations.max) * variants.size();
  return n;
}

std::size_t Plan::min_iterations() const {
  std::size_t n = 0;
  for (const auto& p : points) n += static_cast<std::size_t>(p.iterations.min) * variants.size();
  return n;
}

bool variant_applies(const VariantConfig& v, const std::string& kernel) {
  return v.kernels.empty() ||
         std::find(v.kernels.begin(), v.kernels.end(), kernel) != v.kernels.end();
}

Plan expand_plan(const Config& config, const PlanOptions& options) {
  Plan plan;
  for (std::size_t i = 0; i < config.workloads.size(); ++i)
    expand(config.workloads[i], i, options, plan.points);
  for (const auto& v : config.variants)
    if (!options.kernel || variant_applies(v, *options.kernel)) plan.variants.push_back(&v);
  plan.order = config.order;
  return plan;
}

}  // namespace schedlab
