#include "runner/run/dry_run.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <vector>

#include "base/message.h"
#include "base/text.h"
#include "runner/knobs/knob_kind.h"
#include "runner/lab/host_set.h"
#include "runner/run/kernel_columns.h"
#include "runner/run/preflight.h"
#include "runner/run/run_group.h"
#include "runner/run/run_shape.h"

namespace schedlab {
namespace {

void print_plan(const Config& config, const Plan& plan, int iterations) {
  std::string out;
  out += fmt::format(
      "plan for {}: {} variants x {} points, at most {} iterations{}, {}\n", config.path,
      config.variants.size(), plan.points.size(), plan.max_iterations(),
      config.pairs.empty() ? "" : fmt::format(" on each of {} pairs at once", config.pairs.size()),
      plan.order == Order::kInterleaved ? "variants interleaved per iteration"
                                        : "variants in sequence per point");
  if (iterations)
    out += fmt::format(
        "  iterations: {} per point and variant (--iterations, in place of the config's)\n",
        iterations);
  for (const auto& p : config.pairs)
    out += fmt::format("  pair {}: sut {}, loadgen {}{}\n", p.name, p.sut, p.loadgen,
                       p.sut_address.empty() ? "" : ", sut_address " + p.sut_address);
  for (const auto& v : config.variants)
    out += fmt::format("  variant {}:{}\n", v.name, describe_knobs(v.knobs));
  for (const auto& p : plan.points) {
    std::string argv;
    for (const auto& step : p.workload->workload->iteration_steps(
             p.point, StepContext{.workdir = "WORKDIR", .sut_address = "SUT", .port = 0}))
      argv += fmt::format(" [{}]", fmt::join(step.argv, " "));
    const auto& it = p.iterations;
    const std::string n =
        it.sequential
            ? fmt::format(
                  "{}..{} until every variant is decided against the baseline (sequential: "
                  "alpha {:g}, power {:g}, min effect {:g}%{})",
                  it.min, it.max, it.sequential->design.alpha, it.sequential->design.power,
                  it.sequential->design.min_effect_pct,
                  it.sequential->design.plan_cv_pct > 0
                      ? fmt::format(", looks planned from a CV of {:g}%",
                                    it.sequential->design.plan_cv_pct)
                      : "")
        : it.adaptive()
            ? fmt::format("{}..{} until CI half-width <= {}%", it.min, it.max, *it.ci_width_pct)
            : fmt::format("x{}", it.max);
    out += fmt::format("  {} {}:{}\n", p.describe(), n, argv);
  }
  // 100 columns: a long path or argv goes on below. Escaped as run's own
  // lines are: a workload name or argv may hold an ESC, a BEL or a U+202E.
  fmt::print("{}", wrap_words(terminal_safe(out, true)));
}

// --dry-run: the run's read-only checks (check_plan) on each pair it can
// reach, so a knob the SUT lacks or a value it cannot take is found before
// the real run measures its baseline. A lab SUT is not booted for a dry run.
void dry_run_checks(const Config& config, const PlanOptions& plan_options) {
  if (config.sut_lab) {
    fmt::print(
        "preflight: not run (the lab SUT is booted by the run itself; its knobs are checked "
        "then)\n");
    return;
  }
  const RunShape shape = RunShape::one_run(config, plan_options);
  const KernelShape& kernel = shape.kernels.front();
  for (std::size_t i = 0; i < shape.pair_count(); ++i) {
    const HostSpec hosts = shape.hosts(kernel, i);
    std::optional<HostSet> connected;
    try {
      connected.emplace(hosts);
    } catch (const HostError& e) {
      print_message(fmt::format(
          "schedlab run: dry run: cannot reach {} ({}): its checks are left to the run\n",
          hosts.sut, e.what()));
      continue;
    }
    check_plan(connected->pair(), config, kernel.plan);  // PreflightError as the run would
    fmt::print("{}", wrap_words(terminal_safe(fmt::format(
                         "preflight on {}: programs, CPUs and knobs checked, nothing changed",
                         connected->pair().sut.name()))));
  }
}

// Kernels x variants: which variants each kernel's run gets.
void print_kernels(const RunShape& shape, const std::string& group) {
  std::string out = fmt::format("{} kernels, booted in turn, one run each (group '{}'):\n",
                                shape.kernels.size(), group);
  for (const auto& k : shape.kernels) {
    std::vector<std::string> names;
    for (const auto& v : shape.config.variants)
      names.push_back(variant_applies(v, k.kernel) ? v.name : "(" + v.name + " skipped)");
    out += fmt::format("  kernel {} as run '{}': {}; at most {} iterations\n", k.kernel,
                       kernel_run_name(group, k.kernel), fmt::join(names, " "),
                       k.plan.max_iterations());
  }
  fmt::print("{}", wrap_words(terminal_safe(out, true)));  // a long name goes on below
}

// Kernels as columns: what the one run compares.
void print_kernel_columns(const RunShape& shape) {
  std::vector<std::string> names;
  for (const auto* v : shape.columns_plan->variants) names.push_back(v->name);
  fmt::print("{}", wrap_words(terminal_safe(fmt::format(
                       "{} kernels booted side by side, one run; columns (the first the "
                       "baseline): {}",
                       shape.kernels.size(), fmt::join(names, " ")))));
}

}  // namespace

void print_dry_run(const Config& config, const PlanOptions& plan_options, const Plan& plan,
                   const std::string& group, int iterations) {
  if (kernels_as_columns(config))
    print_kernel_columns(RunShape::kernel_columns(config, plan_options));
  else if (!group.empty())
    print_kernels(RunShape::per_kernel(config, plan_options), group);
  print_plan(config, plan, iterations);
  dry_run_checks(config, plan_options);
}

}  // namespace schedlab
