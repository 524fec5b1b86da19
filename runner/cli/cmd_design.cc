// schedlab design: what a `stop: sequential` comparison costs before the
// night (as R's power.t.test and rpact's getDesignCharacteristics tell it):
// the looks and bounds at a CV, the fixed n of equal power, the maximum n,
// the average iterations in theory and, with --simulate, measured by the
// sequential test the runner drives (analysis/sequential/sequential_planning.h).
#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "analysis/render/render_sequential_design.h"
#include "analysis/sequential/sequential_planning.h"
#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/design_progress.h"
#include "runner/cli/output_format.h"

namespace schedlab::cli {
namespace {

struct DesignCmdOptions {
  double alpha = 0.05;
  double power = 0.8;
  double min_effect_pct = 3;
  double cv_pct = 0;
  double plan_cv_pct = 0;  // --plan-cv: the looks planned from this CV (0: from the samples)
  std::string spending = "obf";
  std::size_t min_n = 3;
  std::size_t max_n = 60;  // as `iterations: {stop: sequential}`'s default max
  std::size_t trials = 0;  // --simulate: 0, none
  std::uint64_t seed = 1;
  std::string dist = "normal";
  Format format = Format::kText;
};

// --simulate's bound on its work. Each trial draws up to --max iterations a
// side at each of three changes, and the test may look at each iteration
// once its planned looks are spent: one trial at --max 100000 took 36 s
// here. Within these a simulation takes minutes at most (20000 trials at
// --max 60 and a CV of 5%: 285 s; 200 at --max 10000: 5 min), shown by a
// progress line on a terminal (design_progress.h); past them, hours.
constexpr std::size_t kSimulateMaxN = 10'000;
constexpr std::size_t kSimulateWork = 2'000'000;  // trials x --max

std::optional<std::string> simulation_too_big(std::size_t trials, std::size_t max_n) {
  if (trials == 0) return std::nullopt;
  if (max_n > kSimulateMaxN)
    return fmt::format(
        "--simulate takes --max up to {} (not {}): a trial's looks read every sample so far, so "
        "its cost grows with the square of --max",
        kSimulateMaxN, max_n);
  if (trials > kSimulateWork / max_n)
    return fmt::format(
        "--simulate {} with --max {} is {:.3g} iterations a side a change; the bound is {} (trials "
        "x "
        "--max): past it a simulation takes hours",
        trials, max_n, static_cast<double>(trials) * static_cast<double>(max_n), kSimulateWork);
  return std::nullopt;
}

const Renderers<std::string (*)(const DesignReport&)> kDesignOutputs{
    {Format::kText, render_design_text},
    {Format::kJson, render_design_json},
};

int design_command(const DesignCmdOptions& o) {
  return guarded<std::invalid_argument>({"schedlab design"}, [&] {
    SequentialDesign d;
    d.alpha = o.alpha;
    d.power = o.power;
    d.min_effect_pct = o.min_effect_pct;
    d.min_n = o.min_n;
    d.plan_cv_pct = o.plan_cv_pct;
    d.spending = *gs::parse_spending(o.spending);  // checked by the option
    DesignReport r{design_cost(d, o.cv_pct, o.max_n), std::nullopt,
                   o.dist == "lognormal" ? Noise::kLogNormal : Noise::kNormal, o.seed};
    // As the config refuses plan_cv_pct: looks fixed before any data past the cap.
    if (const auto& st = r.cost.plan.stated; st && st->looks.back() > static_cast<double>(o.max_n))
      throw std::invalid_argument(
          fmt::format("a CV of {:g}% plans looks up to {:g} iterations a side, past --max ({})",
                      o.plan_cv_pct, st->looks.back(), o.max_n));
    if (o.trials > 0) r.simulated = simulate_with_progress(r.cost, r.noise, o.trials, o.seed);
    fmt::print("{}", kDesignOutputs.of(o.format)(r));
    return kOk;
  });
}

// A value in the open interval (lo, hi).
CLI::Validator open_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (!s.empty() && end == s.c_str() + s.size() && v > lo && v < hi) return "";
        return fmt::format("must be a number in ({:g}, {:g}), not '{}'", lo, hi,
                           terminal_safe(excerpt(s)));
      },
      fmt::format("in ({:g}, {:g})", lo, hi));
}

}  // namespace

void register_design(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<DesignCmdOptions>();
  auto* cmd = add_command(
      app, "design", "plan a sequential A/B (stop: sequential): looks, bounds, iterations it costs",
      {"Works out what a stop: sequential comparison costs before the night: the looks "
       "and bounds the test takes at a stated CV, the fixed n of equal power (R's "
       "power.t.test), the maximum n, and the average iterations a variant costs under "
       "no change, at min_effect and at twice it; with --simulate, the same figures "
       "measured by seeded trials of the test the runner drives.",
       {{"schedlab design --cv 4", "the default design (alpha 0.05, power 0.8, 3%)"},
        {"schedlab design --cv 2 --min-effect 5 --simulate 20000 --seed 1 --format json",
         "its error rates and iterations, simulated"},
        {"schedlab design --cv 4 --plan-cv 4", "looks planned from a CV stated before the run"}}});
  cmd->add_option("--alpha", o->alpha, "two-sided type I error")
      ->check(open_range(0, 0.5))
      ->capture_default_str();
  cmd->add_option("--power", o->power, "power at min_effect")
      ->check(open_range(0.5, 1))
      ->capture_default_str();
  cmd->add_option("--min-effect", o->min_effect_pct,
                  "the smallest change worth finding, % of the mean")
      ->check(open_range(0, 100))
      ->capture_default_str();
  cmd->add_option("--cv", o->cv_pct, "the metric's coefficient of variation, % of the mean")
      ->check(open_range(0, 1000))
      ->required();
  cmd->add_option("--plan-cv", o->plan_cv_pct,
                  "plan the looks from this CV before any data, as the config's plan_cv_pct "
                  "(--cv is then the true CV the figures are at)")
      ->check(open_range(0, 1000));
  cmd->add_option("--spending", o->spending,
                  "alpha spending: obf (O'Brien-Fleming-type), pocock or kd(RHO) (Kim-DeMets)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            if (gs::parse_spending(s)) return "";
            return fmt::format(
                "unknown spending function '{}'; known: obf, pocock, kd(RHO) "
                "(RHO from 0.5 to 5)",
                s);
          },
          "obf|pocock|kd(RHO)"))
      ->capture_default_str();
  cmd->add_option("--min", o->min_n, "iterations a side before the first look")
      ->check(CLI::Range(2, 1'000'000))
      ->capture_default_str();
  cmd->add_option("--max", o->max_n, "the iteration cap a side (its look is the last)")
      ->check(CLI::Range(2, 1'000'000))
      ->capture_default_str();
  auto* simulate =
      cmd->add_option(
             "--simulate", o->trials,
             fmt::format("also simulate TRIALS trials at each change (seeded); TRIALS x --max at "
                         "most {} and --max at most {}: minutes at most, with "
                         "progress on a terminal",
                         kSimulateWork, kSimulateMaxN))
          ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--seed", o->seed, "the simulation's seed")
      ->check(uint64_digits())
      ->needs(simulate)
      ->capture_default_str();
  cmd->add_option("--dist", o->dist, "the simulation's noise")
      ->check(CLI::IsMember({"normal", "lognormal"}))
      ->needs(simulate)
      ->capture_default_str();
  kDesignOutputs.add_option(*cmd, o->format);
  cmd->callback([o, &exit_code] {
    if (o->max_n < o->min_n) {
      print_message(
          fmt::format("schedlab design: --max ({}) is below --min ({})\n", o->max_n, o->min_n));
      exit_code = kBadInput;
      return;
    }
    if (const auto problem = simulation_too_big(o->trials, o->max_n)) {
      print_message(fmt::format("schedlab design: {}\n", *problem));
      exit_code = kBadInput;
      return;
    }
    exit_code = design_command(*o);
  });
}

}  // namespace schedlab::cli
