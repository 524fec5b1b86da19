// bench_sequential: the sequential A/B test's real error rates and
// iteration counts, by seeded Monte Carlo of the default design (alpha
// 0.05, power 0.8, min_effect 3%, O'Brien-Fleming-type spending, 10
// planned looks): no change, min_effect and twice it; normal and log-normal
// noise; CV 2%, 4% and 10%; min 3 and 5 iterations a side before the first
// look. Each setting prints P(different), P(same), P(undecided), the mean
// and 95th-percentile iterations a side at the stop, the fixed n of equal
// power (R's power.t.test, rounded up), and each figure against its goal
// (analysis/sequential/sequential_planning.h for the reference):
//   no change        type I <= alpha + 2 SE (SE of alpha at this many trials);
//                    mean iterations <= 0.90 of the fixed n
//   min_effect       power (different, the right way) >= power - 2 SE;
//                    mean iterations <= 1.05 x rpact's ASN for the efficacy-only
//                    design with the same spending at the same looks (the
//                    rates of the setting's looks at its CV, design_cost)
//   2 x min_effect   mean iterations <= 0.55 of the fixed n
//
//   build/bench/bench_sequential [TRIALS] [spending=NAME] [same_spending=NAME]
//                                [replan=grow|free|frozen] [cv=PCT] [min=N]
//                                [noise=normal|lognormal] [change=0|1|2]
//                                [schedule=estimated|known] [prior_cv=PCT]
//                                [margin=X]
//                                [quantile=Q] [small_n=G] [free_from_df=D]
//                                [same_error=G] [nominal_alpha=A]
//                                [settled_df=D] [settled_margin=X]
//                                [unsettled_ratio=R] [alpha=A] [power=P]
//                                [short_ratio=R short_margin=X short_below=B]
//                                [seed=S]
// TRIALS: default 20000 a setting; NAME: obf, pocock, kd, kd(RHO) (default:
// the design's); replan: how each look's variance re-plans the needed n
// (SequentialReplan; default grow); cv, min, noise, change: only the
// settings with that value (change in multiples of min_effect), for
// exploring; the others keep their seeds (a cv other than 2, 4, 10 runs
// that CV alone). schedule=known plans each look
// from the setting's true CV instead of the samples' variance
// (SequentialDesign::plan_cv_pct; the statistic still estimates it): the
// looks `schedlab design` prints, and the floor of what any schedule that
// estimates the variance can cost with Welch's t at these looks.
// prior_cv=PCT: the looks planned from PCT whatever the setting's true CV (a
// CV stated before the run, right or wrong: the looks, and so type I, are
// fixed before any data; power holds only when PCT is the true CV). margin,
// quantile, small_n, free_from_df: the design's power_margin,
// variance_quantile, small_n_term, free_from_df, same_error, settled_df
// and settled_margin, unsettled_alpha_ratio (SequentialDesign; 0, the
// default: the calibration table, sequential_calibration.h), for exploring;
// short_ratio, short_margin, short_below: the short level (a first look
// whose needed n is below short_below times its n) in place of the table's
// (SequentialDesign::short_alpha_ratio, short_power_margin,
// short_below_ratio);
// nominal_alpha: the alpha the design spends and plans its power at, while
// the goals stay at the stated alpha; alpha, power: the design's stated
// alpha and power (default 0.05, 0.8), the goals at them.
//
// Settings run on two threads; user and system CPU are printed at the end.
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <future>
#include <map>
#include <string>
#include <vector>

#include "analysis/sequential/sequential.h"
#include "analysis/sequential/sequential_planning.h"
#include "analysis/sequential/sequential_simulation.h"

using namespace schedlab;

namespace {

struct Row {
  std::size_t min_n = 3;
  SimulationSetting setting;
  SimulationResult result;
  double multiple = 0;  // of min_effect
  std::string level;    // of looks planned from a stated CV (SequentialPlan::stated)
};

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

std::string_view noise_name(Noise n) {
  return n == Noise::kNormal ? "normal" : "lognormal";
}

// "0.0512 <= 0.0531 ok" or "... FAIL".
std::string against(double value, std::string_view op, double goal, int& failed,
                    std::string_view format = "{:.4f}") {
  const bool ok = op == "<=" ? value <= goal : value >= goal;
  failed += !ok;
  return fmt::format("{} {} {} {}", fmt::format(fmt::runtime(format), value), op,
                     fmt::format(fmt::runtime(format), goal), ok ? "ok" : "FAIL");
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t trials = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20'000;
  if (trials == 0) {
    fmt::print(stderr, "bench_sequential: TRIALS must be a positive number\n");
    return 2;
  }
  SequentialDesign design;
  const SequentialDesign defaults;
  // The goals are at the stated alpha (alpha=); nominal_alpha only changes what the bounds spend.
  double stated_alpha = defaults.alpha;
  std::map<std::string, std::string> only;  // cv, min, noise, change
  bool known_schedule = false;
  double prior_cv = 0;  // prior_cv=PCT: looks planned from PCT (0: schedule= decides)
  // The first setting's; the others count up from it. seed=S: other trials
  // (a calibration chosen on them is checked on the default's).
  std::uint64_t seed = 20240536;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    const std::string key = arg.substr(0, eq),
                      value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "cv" || key == "min" || key == "noise" || key == "change") {
      only[key] = value;
      continue;
    }
    if (key == "margin" || key == "quantile" || key == "small_n" || key == "free_from_df" ||
        key == "nominal_alpha" || key == "same_error" || key == "settled_df" ||
        key == "settled_margin" || key == "unsettled_ratio" || key == "alpha" || key == "power" ||
        key == "short_ratio" || key == "short_margin" || key == "short_below") {
      char* end = nullptr;
      const double x = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0') {
        fmt::print(stderr, "bench_sequential: '{}' is not a number\n", arg);
        return 2;
      }
      if (key == "alpha") stated_alpha = x;
      (key == "margin"            ? design.power_margin
       : key == "alpha"           ? design.alpha
       : key == "power"           ? design.power
       : key == "quantile"        ? design.variance_quantile
       : key == "free_from_df"    ? design.free_from_df
       : key == "nominal_alpha"   ? design.alpha
       : key == "same_error"      ? design.same_error
       : key == "settled_df"      ? design.settled_df
       : key == "settled_margin"  ? design.settled_margin
       : key == "unsettled_ratio" ? design.unsettled_alpha_ratio
       : key == "short_ratio"     ? design.short_alpha_ratio
       : key == "short_margin"    ? design.short_power_margin
       : key == "short_below"     ? design.short_below_ratio
                                  : design.small_n_term) = x;
      continue;
    }
    if (key == "seed") {
      char* end = nullptr;
      seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') {
        fmt::print(stderr, "bench_sequential: '{}' is not a seed\n", arg);
        return 2;
      }
      continue;
    }
    if (key == "prior_cv") {
      char* end = nullptr;
      prior_cv = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(prior_cv > 0 && prior_cv < 1000)) {
        fmt::print(stderr, "bench_sequential: '{}' is not a CV in (0, 1000)\n", arg);
        return 2;
      }
      continue;
    }
    if (key == "schedule" && (value == "known" || value == "estimated")) {
      known_schedule = value == "known";
      continue;
    }
    if (key == "replan" && (value == "grow" || value == "free" || value == "frozen")) {
      design.replan = value == "grow"   ? SequentialReplan::kGrow
                      : value == "free" ? SequentialReplan::kFree
                                        : SequentialReplan::kFrozen;
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
  if (const std::string e = design_error(design); !e.empty()) {
    fmt::print(stderr, "bench_sequential: {}\n", e);
    return 2;
  }
  const SequentialPlan plan = plan_sequential(design);
  fmt::print(
      "design: alpha {} two-sided, power {} at min_effect {}% ({}), same_error {}, {} planned "
      "looks, spending {} (same: {}), {}\n",
      design.alpha, design.power, design.min_effect_pct,
      design.unsettled_alpha_ratio > 0
          ? fmt::format("not settled: alpha x {}, power planned at {}",
                        design.unsettled_alpha_ratio, design.power + design.power_margin)
          : fmt::format("not settled: the calibrated level of a first look at min, alpha x {}, "
                        "power planned at {}",
                        plan.unsettled.front().calibration.alpha_ratio, plan.power),
      plan.same_error, design.planned_looks, gs::spending_name(design.spending),
      gs::spending_name(design.same_spending),
      prior_cv > 0     ? fmt::format("looks planned from a CV of {}% (prior_cv)", prior_cv)
      : known_schedule ? "looks planned from the true CV (schedule=known)"
                       : fmt::format("replan {}", replan_name(design.replan)));
  if (design.variance_quantile != defaults.variance_quantile ||
      design.small_n_term != defaults.small_n_term ||
      design.free_from_df != defaults.free_from_df || design.settled_df != defaults.settled_df ||
      design.settled_margin != defaults.settled_margin ||
      design.unsettled_alpha_ratio != defaults.unsettled_alpha_ratio)
    fmt::print(
        "needed n: variance at chi2 quantile {} (0: s^2 as it is), {} x Guenther's term, free "
        "from {} degrees of freedom (0: never); settled from a first look with {} degrees of "
        "freedom (0: never), power margin {} then; unsettled: alpha x {}\n",
        design.variance_quantile, design.small_n_term, design.free_from_df, design.settled_df,
        design.settled_margin, design.unsettled_alpha_ratio);
  fmt::print(
      "plan: eta {:.4f} (fixed {:.4f}), maximum information {:.3f} x fixed; normal theory: "
      "type I {:.4f}, P(same | min_effect) {:.4f}\n",
      plan.eta, plan.fixed_eta, plan.inflation, plan.type1, plan.same_at_min_effect);
  fmt::print(
      "reference: rpact's efficacy-only design with the same spending at each setting's looks "
      "(the rates n_k / max_n of `schedlab design --cv CV --min N`): ASN at min_effect "
      "(getDesignCharacteristics) x power.t.test's n\n");
  const double se_alpha = std::sqrt(stated_alpha * (1 - stated_alpha) / trials);
  const double se_power = std::sqrt(design.power * (1 - design.power) / trials);
  fmt::print(
      "{} trials a setting, seeded; iterations are a side (baseline and variant interleaved); "
      "2 SE: {:.4f} (alpha), {:.4f} (power)\n\n",
      trials, 2 * se_alpha, 2 * se_power);

  std::vector<Row> rows;
  auto wanted = [&](const std::string& key, const std::string& value) {
    return !only.contains(key) || only[key] == value;
  };
  // cv=PCT other than 2, 4 or 10 runs that CV alone (the standard settings keep their seeds).
  std::vector<double> cvs{2.0, 4.0, 10.0};
  if (only.contains("cv")) {
    const double extra = std::strtod(only["cv"].c_str(), nullptr);
    if (!(extra > 0 && extra < 1000)) {
      fmt::print(stderr, "bench_sequential: cv must be in (0, 1000), not '{}'\n", only["cv"]);
      return 2;
    }
    only["cv"] = fmt::format("{:g}", extra);
    if (std::find(cvs.begin(), cvs.end(), extra) == cvs.end()) cvs.push_back(extra);
  }
  for (Noise noise : {Noise::kNormal, Noise::kLogNormal})
    for (std::size_t min_n : {3, 5})
      for (double cv : cvs)
        for (int multiple : {0, 1, 2}) {
          const std::uint64_t this_seed = seed++;  // the same whatever is filtered
          if (!wanted("noise", std::string(noise_name(noise))) ||
              !wanted("min", std::to_string(min_n)) || !wanted("cv", fmt::format("{:g}", cv)) ||
              !wanted("change", std::to_string(multiple)))
            continue;
          Row r;
          r.min_n = min_n;
          r.multiple = multiple;
          r.setting = {.cv_pct = cv,
                       .change_pct = multiple * design.min_effect_pct,
                       .noise = noise,
                       .trials = trials,
                       .max_n = 100'000,
                       .seed = this_seed};
          rows.push_back(r);
        }
  // Two workers, each taking every other setting.
  auto work = [&](std::size_t first) {
    for (std::size_t i = first; i < rows.size(); i += 2) {
      SequentialDesign d = design;
      d.min_n = rows[i].min_n;
      if (known_schedule) d.plan_cv_pct = rows[i].setting.cv_pct;
      if (prior_cv > 0) d.plan_cv_pct = prior_cv;
      const SequentialPlan plan = plan_sequential(d);
      if (plan.stated) {
        const SequentialPlan::StatedLevel& st = *plan.stated;
        rows[i].level = fmt::format(
            "stated CV {}%: alpha x {:.4f} ({}), power planned at {:g}, looks {}-{}{}",
            d.plan_cv_pct, st.level.calibration.alpha_ratio,
            st.settled                        ? "settled"
            : st.level.calibration.calibrated ? "calibrated"
                                              : "fixed",
            d.power + st.level.calibration.power_margin, st.looks.front(), st.looks.back(),
            st.paths ? fmt::format(", simulated efficacy-only type I {:.4f}", st.type1) : "");
      }
      rows[i].result = simulate_sequential(plan, Centre::kAmean, rows[i].setting);
    }
  };
  auto other = std::async(std::launch::async, work, 1);
  work(0);
  other.get();

  fmt::print("{:<9} {:>3} {:>3} {:>6} | {:>6} {:>6} {:>6} | {:>6} {:>4} {:>5} | goals\n", "noise",
             "min", "CV%", "change", "diff.", "same", "undec.", "mean n", "p95", "fixed");
  int failed = 0;
  for (const Row& r : rows) {
    const auto& s = r.setting;
    const auto& x = r.result;
    const double n = static_cast<double>(x.trials);
    const double diff = static_cast<double>(x.different) / n;
    const auto fixed_n = static_cast<double>(
        fixed_n_for_power(stated_alpha, design.power, design.min_effect_pct, s.cv_pct));
    std::string goal;
    if (r.multiple == 0) {
      goal = fmt::format("type I {}; n/fixed {}",
                         against(diff, "<=", stated_alpha + 2 * se_alpha, failed),
                         against(x.mean_n / fixed_n, "<=", 0.90, failed, "{:.3f}"));
    } else if (r.multiple == 1) {
      const double power = static_cast<double>(x.different - x.different_wrong_way) / n;
      SequentialDesign stated = design;
      stated.alpha = stated_alpha;
      stated.min_n = r.min_n;
      if (known_schedule) stated.plan_cv_pct = s.cv_pct;
      if (prior_cv > 0) stated.plan_cv_pct = prior_cv;
      const double rpact_asn = design_cost(stated, s.cv_pct, 0).reference_asn_h1;
      goal = fmt::format("power {}; n {} (1.05 x rpact's {:.2f})",
                         against(power, ">=", design.power - 2 * se_power, failed),
                         against(x.mean_n, "<=", 1.05 * rpact_asn, failed, "{:.2f}"), rpact_asn);
    } else {
      goal = fmt::format("n/fixed {}", against(x.mean_n / fixed_n, "<=", 0.55, failed, "{:.3f}"));
    }
    fmt::print(
        "{:<9} {:>3} {:>3} {:>5}% | {:>6.4f} {:>6.4f} {:>6.4f} | {:>6.2f} {:>4} {:>5} | {}\n",
        noise_name(s.noise), r.min_n, s.cv_pct, s.change_pct, diff, static_cast<double>(x.same) / n,
        static_cast<double>(x.undecided) / n, x.mean_n, x.p95_n, fixed_n, goal);
    if (!r.level.empty()) fmt::print("    {}\n", r.level);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("\n{} goal checks not met; CPU {:.1f} s user + {:.1f} s sys\n", failed,
             seconds(ru.ru_utime), seconds(ru.ru_stime));
  return 0;
}
