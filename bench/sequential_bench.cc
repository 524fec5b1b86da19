// bench_sequential: the sequential A/B test's real error rates and
// iteration counts, by seeded Monte Carlo of the default design
// (alpha 0.05, power 0.8, min_effect 3%): A/A, A/B at min_effect and at
// twice it; normal and log-normal noise; CV 2%, 5% and 10%. Each setting
// prints P(different), P(same), P(undecided), the mean and 95th-percentile
// iterations a side at the stop, and the fixed n of equal power (R's
// power.t.test, rounded up) it is measured against; then the goals:
//   type I error <= alpha within Monte Carlo error (rate - 2 SE <= alpha),
//   power >= 0.8 at min_effect (rate + 2 SE >= 0.8),
//   mean iterations <= 70% of the fixed n at min_effect.
//
//   build/bench/bench_sequential [TRIALS] [spending=NAME] [same_spending=NAME]
//                                [replan=yes|no] [settings=min_effect]
// TRIALS: default 10000 a setting; NAME: obf, pocock, kd, kd(RHO) (default:
// the design's); replan=no: the needed n is the first look's (default yes:
// re-planned at each look); settings=min_effect: only A/A and min_effect,
// normal noise (for exploring).
//
// Settings run on two threads; user and system CPU are printed at the end.
#include <fmt/format.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdlib>
#include <future>
#include <string>
#include <vector>

#include "analysis/sequential/sequential.h"
#include "analysis/sequential/sequential_simulation.h"

using namespace schedlab;

namespace {

struct Row {
  SimulationSetting setting;
  SimulationResult result;
  std::size_t fixed_n = 0;
};

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t trials = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10'000;
  SequentialDesign design;
  bool few_settings = false;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    const std::string key = arg.substr(0, eq),
                      value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "settings" && value == "min_effect") {
      few_settings = true;
      continue;
    }
    if (key == "replan" && (value == "yes" || value == "no")) {
      design.replan = value == "yes";
      continue;
    }
    const auto f = gs::parse_spending(value);
    if (f && key == "spending")
      design.spending = *f;
    else if (f && key == "same_spending")
      design.same_spending = *f;
    else {
      fmt::print(stderr, "bench_sequential: unknown argument '{}'\n", arg);
      return 2;
    }
  }
  const SequentialPlan plan = plan_sequential(design);
  fmt::print(
      "design: alpha {} two-sided, power {} at min_effect {}% (planned at {} with the "
      "margin), same_error {}, min_n {}, {} planned looks, spending {} (same: {})\n",
      design.alpha, design.power, design.min_effect_pct, design.power + design.power_margin,
      plan.same_error, design.min_n, design.planned_looks, gs::spending_name(design.spending),
      gs::spending_name(design.same_spending));
  fmt::print(
      "plan: eta {:.4f} (fixed {:.4f}), maximum information {:.3f} x fixed; normal theory: "
      "type I {:.4f}, P(same | min_effect) {:.4f}, E[t] {:.3f} at min_effect ({:.3f} x "
      "fixed), {:.3f} at no change\n",
      plan.eta, plan.fixed_eta, plan.inflation, plan.type1, plan.same_at_min_effect,
      plan.expected_fraction_h1, plan.expected_fraction_h1 * plan.inflation,
      plan.expected_fraction_h0);
  fmt::print(
      "{} trials a setting, seeded; iterations are a side (baseline and variant "
      "interleaved)\n\n",
      trials);

  std::vector<Row> rows;
  std::uint64_t seed = 20240536;
  for (Noise noise : {Noise::kNormal, Noise::kLogNormal})
    for (double cv : {2.0, 5.0, 10.0})
      for (double change : {0.0, design.min_effect_pct, 2 * design.min_effect_pct}) {
        if (few_settings && (noise != Noise::kNormal || change > design.min_effect_pct)) {
          ++seed;  // the other settings keep their seeds
          continue;
        }
        Row r;
        r.setting = {.cv_pct = cv,
                     .change_pct = change,
                     .noise = noise,
                     .trials = trials,
                     .max_n = 100'000,
                     .seed = seed++};
        r.fixed_n = fixed_n_for_power(design.alpha, design.power, design.min_effect_pct, cv);
        rows.push_back(r);
      }
  // Two workers, each taking every other setting.
  auto work = [&](std::size_t first) {
    for (std::size_t i = first; i < rows.size(); i += 2)
      rows[i].result = simulate_sequential(plan, Centre::kAmean, rows[i].setting);
  };
  auto other = std::async(std::launch::async, work, 1);
  work(0);
  other.get();

  fmt::print("{:<10} {:>4} {:>6} | {:>10} {:>7} {:>7} | {:>7} {:>4} {:>6} {:>8} | goal\n", "noise",
             "CV%", "change", "different", "same", "undec.", "mean n", "p95", "fixed", "mean/fix");
  int failed = 0;
  for (const Row& r : rows) {
    const auto& s = r.setting;
    const auto& x = r.result;
    const double n = static_cast<double>(x.trials);
    const double diff = static_cast<double>(x.different) / n;
    const double se = std::sqrt(diff * (1 - diff) / n);
    const double ratio = x.mean_n / static_cast<double>(r.fixed_n);
    std::string goal;
    if (s.change_pct == 0) {
      const bool ok = diff - 2 * se <= design.alpha;
      goal = fmt::format("type I {} alpha", ok ? "<=" : "> ");
      failed += !ok;
    } else if (s.change_pct == design.min_effect_pct) {
      const bool power_ok = diff + 2 * se >= design.power;
      const bool n_ok = ratio <= 0.70;
      goal = fmt::format("power {}, n {} 70%", power_ok ? "ok" : "LOW", n_ok ? "<=" : "> ");
      failed += !power_ok + !n_ok;
    }
    fmt::print(
        "{:<10} {:>4} {:>5}% | {:>6.4f}±{:.4f} {:>7.4f} {:>7.4f} | {:>7.2f} {:>4} {:>6} "
        "{:>8.3f} | {}\n",
        s.noise == Noise::kNormal ? "normal" : "log-normal", s.cv_pct, s.change_pct, diff, se,
        static_cast<double>(x.same) / n, static_cast<double>(x.undecided) / n, x.mean_n, x.p95_n,
        r.fixed_n, ratio, goal);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("\n{} goal checks not met; CPU {:.1f} s user + {:.1f} s sys\n", failed,
             seconds(ru.ru_utime), seconds(ru.ru_stime));
  return 0;
}
