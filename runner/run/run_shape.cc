#include "runner/run/run_shape.h"

#include <fmt/format.h>

#include "runner/config/host_specs.h"
#include "runner/lab/kernel.h"
#include "runner/lab/lab_config_yaml.h"
#include "runner/run/run_context.h"

namespace schedlab {
namespace {

KernelShape kernel_shape(const Config& config, const std::string& kernel, PlanOptions options) {
  if (!config.sut_lab) return {.kernel = "", .plan = expand_plan(config, options)};
  options.kernel = kernel;
  KernelShape k{.kernel = kernel, .plan = expand_plan(config, options)};
  if (k.plan.variants.empty())
    throw PreflightError(fmt::format("{}: no variant applies to kernel '{}'", config.path, kernel));
  return k;
}

}  // namespace

bool is_multi_kernel(const Config& config) {
  return config.sut_lab && !config.sut_lab->kernels.empty();
}

RunShape RunShape::one_run(const Config& config, const PlanOptions& options) {
  RunShape shape{.config = config, .kernels = {}};
  shape.kernels.push_back(
      kernel_shape(config, config.sut_lab ? config.sut_lab->kernel : "", options));
  return shape;
}

RunShape RunShape::per_kernel(const Config& config, const PlanOptions& options) {
  RunShape shape{.config = config, .kernels = {}};
  for (const auto& k : plan_kernels(config.sut_lab))
    shape.kernels.push_back(kernel_shape(config, k, options));
  return shape;
}

RunShape RunShape::kernel_columns(const Config& config, const PlanOptions& options) {
  RunShape shape = per_kernel(config, options);
  Plan plan = expand_plan(config, options);
  plan.variants.clear();
  for (std::size_t k = 0; k < shape.kernels.size(); ++k)
    for (const VariantConfig* v : shape.kernels[k].plan.variants) {
      auto column = std::make_shared<VariantConfig>(*v);
      column->name = lab::kernel_label(shape.kernels[k].kernel) + "/" + v->name;
      plan.variants.push_back(column.get());
      shape.column_variants.push_back(std::move(column));
      shape.column_kernel.push_back(k);
    }
  shape.columns_plan = std::move(plan);
  return shape;
}

HostSpec RunShape::hosts(const KernelShape& kernel, std::size_t i) const {
  if (several_pairs()) return hosts_of(config, config.pairs.at(i));
  HostSpec spec = hosts_of(config);
  if (spec.sut_lab) spec.sut_lab->kernel = kernel.kernel;
  return spec;
}

}  // namespace schedlab
