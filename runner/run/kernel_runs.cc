#include "runner/run/kernel_runs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "runner/run/interrupt.h"
#include "runner/hosts/lab/lab_config_yaml.h"
#include "runner/run/plan.h"
#include "runner/run/session.h"

namespace schedlab {

bool is_multi_kernel(const Config& config) {
  return config.sut_lab && !config.sut_lab->kernels.empty();
}

bool variant_applies(const VariantConfig& v, const std::string& kernel) {
  return v.kernels.empty() ||
         std::find(v.kernels.begin(), v.kernels.end(), kernel) != v.kernels.end();
}

Config config_for_kernel(const Config& config, const std::string& kernel) {
  Config out = config;
  if (!out.sut_lab) return out;
  out.sut_lab->kernel = kernel;
  out.sut_lab->kernels.clear();
  std::erase_if(out.variants, [&](const VariantConfig& v) { return !variant_applies(v, kernel); });
  if (out.variants.empty())
    throw PreflightError(fmt::format("{}: no variant applies to kernel '{}'", config.path, kernel));
  return out;
}

KernelRunsResult run_kernels(Store& store, const Config& config, const std::string& group,
                             const ExecOptions& base) {
  KernelRunsResult result;
  const auto kernels = plan_kernels(config.sut_lab);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string& kernel = kernels[i];
    if (interrupted()) {
      result.interrupted = true;
      break;
    }
    ExecOptions exec = base;
    exec.name = kernel_run_name(group, kernel);
    exec.group = group;
    exec.resume_run.reset();
    if (const auto run = store.find_run_by_name(exec.name)) {
      if (run_group(*run) != group)
        throw PreflightError(
            fmt::format("run '{}' exists and is not part of '{}'", exec.name, group));
      if (run->status == "finished") {
        result.done.push_back(kernel);
        continue;
      }
      exec.resume_run = run->id;
    }
    fmt::print(stderr, "schedlab: kernel {} of {}: {} as run '{}'\n", i + 1, kernels.size(), kernel,
               exec.name);
    try {
      const Config k = config_for_kernel(config, kernel);
      result.runs.push_back(run_config(store, k, expand_plan(k), exec));
      if (result.runs.back().status == "interrupted") {
        result.interrupted = true;
        break;
      }
    } catch (const ConfigError&) {
      throw;  // the same for every kernel
    } catch (const std::exception& e) {
      if (interrupted()) {
        result.interrupted = true;
        break;
      }
      result.errors.push_back(fmt::format("{}: {}", kernel, e.what()));
      fmt::print(stderr, "schedlab: {}: {}\n", kernel, e.what());
    }
  }
  return result;
}

}  // namespace schedlab
