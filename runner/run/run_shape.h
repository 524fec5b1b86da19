// What a config runs, worked out once, top down, before anything connects:
// the kernels (a lab's `kernels:` list, each its own run; else the one the
// SUT boots), per kernel the variants that apply and the plan over them,
// and the pairs the plan runs on (`pairs:`, each in a thread of its own;
// else the hosts: pair). The layers below take their part of it:
//
//   kernel_runs (a group: each kernel) -> session (one run)
//     -> pairs_run (several pairs) -> one_pair (connect, preflight, execute)
//
// The plans point into the config: it must outlive the shape.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/lab/host_set.h"
#include "runner/run/plan.h"

namespace schedlab {

// A config whose lab lists `kernels:` (even one).
bool is_multi_kernel(const Config& config);

// One kernel's run: its plan has the variants that apply to it.
struct KernelShape {
  std::string kernel;  // the lab kernel spec; empty when the SUT is no lab
  Plan plan;
};

struct RunShape {
  // One run (`schedlab run`, nightly, bisect): the kernel sut_lab->kernel
  // names (nightly and bisect set it), with the variants that apply.
  // PreflightError when none does.
  static RunShape one_run(const Config& config, const PlanOptions& options = {});
  // A multi-kernel plan: every kernel of the lab's `kernels:`, in order.
  static RunShape per_kernel(const Config& config, const PlanOptions& options = {});
  // Kernels as columns (kernel_columns.h): every kernel of the lab's
  // `kernels:` (each with its own plan, for its preflight), and one plan
  // whose variants are every kernel x variant that applies, named
  // LABEL/VARIANT (HEAD/default, WORKTREE/default), kernel by kernel.
  static RunShape kernel_columns(const Config& config, const PlanOptions& options = {});
  static RunShape one_run(const Config&&, const PlanOptions& = {}) = delete;
  static RunShape per_kernel(const Config&&, const PlanOptions& = {}) = delete;
  static RunShape kernel_columns(const Config&&, const PlanOptions& = {}) = delete;

  const Config& config;
  std::vector<KernelShape> kernels;  // at least one
  // kernel_columns only: the plan, and per variant of it its kernel (into kernels).
  std::optional<Plan> columns_plan;
  std::vector<std::size_t> column_kernel;
  // What columns_plan's variants point to.
  std::vector<std::shared_ptr<const VariantConfig>> column_variants;

  // `pairs:`: one thread per pair, all into one run.
  bool several_pairs() const { return !config.pairs.empty(); }
  std::size_t pair_count() const { return several_pairs() ? config.pairs.size() : 1; }
  // The hosts of pair `i` for a kernel's run (a lab SUT boots that kernel).
  HostSpec hosts(const KernelShape& kernel, std::size_t i) const;
};

}  // namespace schedlab
