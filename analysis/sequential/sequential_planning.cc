#include "analysis/sequential/sequential_planning.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "analysis/sequential/group_sequential.h"
#include "analysis/stats/stats.h"

namespace schedlab {
namespace {

// Root of f, increasing on [lo, hi] with f(lo) < 0 < f(hi).
template <class F>
double solve_increasing(F f, double lo, double hi) {
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      f, lo, hi, boost::math::tools::eps_tolerance<double>(40), iterations);
  return (a + b) / 2;
}

// The expected n at the stop and P(different the right way) for a true
// change of theta x min_effect over the looks.
struct Outcome {
  double expected_n = 0, above = 0;
};
Outcome outcome_at(double theta, const DesignCost& c, double delta_over_sd) {
  // Z_k = difference / se_k, se_k = sd sqrt(2 / n_k): E[Z_k] = theta delta
  // sqrt(n_k / 2) / sd, which is gs's eta sqrt(t_k) with t_k = n_k / N.
  const double n_ref = c.needed_n;
  std::vector<gs::LookRegion> regions;
  for (const PlannedLook& l : c.looks) {
    const double drift_at_min_effect = delta_over_sd * std::sqrt(l.n / 2.0);
    regions.push_back(
        {static_cast<double>(l.n) / n_ref, l.efficacy_bound, drift_at_min_effect - l.same_bound});
  }
  const double eta = theta * delta_over_sd * std::sqrt(n_ref / 2);
  const gs::PathOutcome o = gs::path_outcome(eta, regions, c.plan.design.grid);
  return {o.expected_fraction * n_ref, o.above};
}

}  // namespace

double fixed_n_exact(double alpha, double power, double min_effect_pct, double cv_pct) {
  const double effect = min_effect_pct / cv_pct;
  const auto hi = static_cast<double>(fixed_n_for_power(alpha, power, min_effect_pct, cv_pct));
  const double lo = std::max(2.0, hi - 1);
  if (t_test_power(alpha, effect, lo) >= power) return lo;
  return solve_increasing([&](double n) { return t_test_power(alpha, effect, n) - power; }, lo, hi);
}

EfficacyOnlyCharacteristics efficacy_only_characteristics(const SequentialDesign& d,
                                                          std::vector<double> t) {
  if (auto e = design_error(d); !e.empty()) throw std::invalid_argument(e);
  if (t.empty())
    for (int k = 1; k <= d.planned_looks; ++k)
      t.push_back(static_cast<double>(k) / d.planned_looks);
  if (!std::is_sorted(t.begin(), t.end(), std::less_equal<>()) || !(t.front() > 0) || t.back() != 1)
    throw std::invalid_argument("information rates must increase from above 0 to 1");
  const std::vector<double> bounds = gs::spending_bounds(d.spending, d.alpha, t, true, d.grid);
  std::vector<gs::LookRegion> regions;
  for (std::size_t k = 0; k < t.size(); ++k) regions.push_back({t[k], bounds[k], 0});
  // rpact's power of a two-sided design counts both ways.
  auto power_at = [&](double eta) {
    const gs::PathOutcome o = gs::path_outcome(eta, regions, d.grid);
    return o.above + o.below;
  };
  const double fixed_eta =
      stats::normal_quantile(1 - d.alpha / 2) + stats::normal_quantile(d.power);
  const auto short_of_power = [&](double e) { return power_at(e) - d.power; };
  // With alpha near power (0.49, 0.51) the root can lie below half the
  // fixed design's drift; at drift 0 the power is alpha, below power.
  const double lo = short_of_power(0.5 * fixed_eta) < 0 ? 0.5 * fixed_eta : 0;
  const double eta = solve_increasing(short_of_power, lo, 2 * fixed_eta);
  EfficacyOnlyCharacteristics c;
  c.inflation = (eta / fixed_eta) * (eta / fixed_eta);
  c.asn_ratio_h1 = gs::path_outcome(eta, regions, d.grid).expected_fraction * c.inflation;
  c.asn_ratio_h0 = gs::path_outcome(0, regions, d.grid).expected_fraction * c.inflation;
  return c;
}

DesignCost design_cost(const SequentialDesign& d, double cv_pct, std::size_t cap) {
  // From 1e-6 %: a CV nearer 0 (a subnormal double) squares to 0 and the
  // needed n to 0/0.
  if (!(cv_pct >= 1e-6 && cv_pct < 1000))
    throw std::invalid_argument(
        fmt::format("the CV must be from 1e-06 % to under 1000 %, not {}", cv_pct));
  if (cap != 0 && cap < d.min_n)
    throw std::invalid_argument(
        fmt::format("the iteration cap ({}) is below min_n ({})", cap, d.min_n));
  DesignCost c;
  c.plan = plan_sequential(d);
  c.cv_pct = cv_pct;
  c.cap = cap;
  const double sd = cv_pct / 100, delta = d.min_effect_pct / 100;
  // The looks SequentialTest takes when every look's variance is sd^2. The
  // first is at the least n from min_n with n >= the needed n / planned
  // looks, the needed n planned as a test whose first look is at that n
  // would (its calibrated level, or settled: design.settled_df).
  SequentialTest test(c.plan, Centre::kAmean, true);
  const auto k = static_cast<double>(d.planned_looks);
  // Looks planned from a stated CV (design.plan_cv_pct) are the same at any
  // true CV; the figures below are at the true one, cv_pct.
  const double plan_sd = d.plan_cv_pct > 0 ? d.plan_cv_pct / 100 : sd;
  const double per_eta2 = 2 * plan_sd * plan_sd / (delta * delta);
  const auto needed_at = [&](std::size_t first_n) {
    const SequentialTest::NeededTerms t = test.first_terms(static_cast<double>(first_n), per_eta2);
    return t.eta * t.eta * per_eta2 + t.small_n;
  };
  // The terms change with n only up to the first settled n (or the plan's
  // last level, when never settled); from there the first look is due at once.
  const std::size_t last_level = d.min_n + c.plan.unsettled.size() - 1;
  std::size_t n = d.min_n;
  for (;; ++n) {
    const auto due = static_cast<std::size_t>(std::ceil(needed_at(n) / k));
    if (n >= due) break;
    if (test.settled_at(static_cast<double>(n)) || (d.settled_df == 0 && n >= last_level)) {
      n = due;
      break;
    }
  }
  c.needed_n = needed_at(n);
  for (;;) {
    const bool at_cap = cap != 0 && n >= cap;
    if (at_cap) n = cap;
    const auto s = test.schedule(static_cast<double>(n), c.needed_n, at_cap);
    c.looks.push_back(
        {n, s.at.fraction, s.efficacy_bound,
         !std::isfinite(s.efficacy_bound) ? 0 : std::erfc(s.efficacy_bound * M_SQRT1_2),
         s.alpha_spent, s.same_bound});
    if (s.last) break;
    n = s.next_n;
  }
  c.max_n = c.looks.back().n;
  c.capped = cap != 0 && static_cast<double>(cap) < c.needed_n;
  c.fixed_n_exact = fixed_n_exact(d.alpha, d.power, d.min_effect_pct, cv_pct);
  c.fixed_n = fixed_n_for_power(d.alpha, d.power, d.min_effect_pct, cv_pct);
  const double effect = delta / sd;
  // The sum over the grid rounds (51.0000185 over a maximum of 51): an
  // average of the looks' n lies between the first and the last.
  const auto first = static_cast<double>(c.looks.front().n);
  const auto expected_n = [&](double theta) {
    return std::clamp(outcome_at(theta, c, effect).expected_n, first, static_cast<double>(c.max_n));
  };
  c.asn = {expected_n(0), expected_n(1), expected_n(2)};
  c.power = outcome_at(1, c, effect).above;
  // rpact's design at the information rates of these looks (n_k / max_n).
  std::vector<double> rates;
  for (const PlannedLook& l : c.looks)
    rates.push_back(static_cast<double>(l.n) / static_cast<double>(c.max_n));
  c.reference = efficacy_only_characteristics(d, rates);
  c.reference_asn_h1 = c.reference.asn_ratio_h1 * c.fixed_n_exact;
  c.min_past_needed = first >= c.needed_n;
  c.reference_applies = !c.capped && !c.min_past_needed;
  return c;
}

DesignSimulation simulate_design(
    const DesignCost& cost, Noise noise, std::size_t trials, std::uint64_t seed,
    const std::function<void(std::size_t done, std::size_t total)>& progress) {
  DesignSimulation r;
  r.trials = trials;
  const double m = cost.plan.design.min_effect_pct;
  SimulationResult at[3];
  std::size_t done = 0;
  for (int i = 0; i < 3; ++i) {
    SimulationSetting s{.cv_pct = cost.cv_pct,
                        .change_pct = i * m,
                        .noise = noise,
                        .trials = trials,
                        .max_n = cost.cap == 0 ? 100'000 : cost.cap,
                        .seed = seed + static_cast<std::uint64_t>(i),
                        .after_trial = {}};
    if (progress) s.after_trial = [&] { progress(++done, 3 * trials); };
    at[i] = simulate_sequential(cost.plan, Centre::kAmean, s);
  }
  const auto share = [&](std::size_t k) {
    return static_cast<double>(k) / static_cast<double>(trials);
  };
  r.type1 = share(at[0].different);
  r.power = share(at[1].different - at[1].different_wrong_way);
  r.mean_n_h0 = at[0].mean_n;
  r.mean_n_h1 = at[1].mean_n;
  r.mean_n_h1x2 = at[2].mean_n;
  return r;
}

}  // namespace schedlab
