#include "analysis/sequential/stated_cv_level.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "analysis/sequential/sequential_simulation.h"
#include "analysis/stats/stats.h"

namespace schedlab {
namespace {

constexpr std::uint64_t kStatedSeed = 43;
constexpr double kShortNeededDf = 30;  // pooled df of the needed n below which:
constexpr double kShortMargin = 0.045;
constexpr double kLongMargin = 0.02;

// Where paths may cross: each (path, look) whose Welch z could reach the
// lowest bound tried, with that z. Paths in order.
struct Crossing {
  std::uint32_t path = 0;
  std::uint32_t look = 0;
  double z = 0;
};

// The t at pooled df 2n - 2 whose z is `bound`: a Welch t below it has a
// z below the bound (Welch's df is at most 2n - 2, and fewer degrees of
// freedom map the same t to a smaller z).
double gate_t(double bound, double n) {
  if (!std::isfinite(bound)) return std::numeric_limits<double>::infinity();
  const double tail = boost::math::cdf(boost::math::complement(boost::math::normal(), bound));
  if (tail <= 0) return std::numeric_limits<double>::infinity();
  return boost::math::quantile(boost::math::complement(boost::math::students_t(2 * n - 2), tail));
}

std::vector<Crossing> simulate(const std::vector<double>& looks, const std::vector<double>& lowest,
                               std::size_t paths, std::uint64_t seed) {
  std::vector<double> gates;
  for (std::size_t k = 0; k < looks.size(); ++k) gates.push_back(gate_t(lowest[k], looks[k]));
  SeededNormal rng(seed);
  std::vector<Crossing> out;
  for (std::size_t p = 0; p < paths; ++p) {
    double mean_a = 0, m2_a = 0, mean_b = 0, m2_b = 0;  // Welford's
    double drawn = 0;
    for (std::size_t k = 0; k < looks.size(); ++k) {
      while (drawn < looks[k]) {
        drawn += 1;
        const double a = rng(), b = rng();
        const double da = a - mean_a, db = b - mean_b;
        mean_a += da / drawn;
        mean_b += db / drawn;
        m2_a += da * (a - mean_a);
        m2_b += db * (b - mean_b);
      }
      const double n = drawn, va = m2_a / (n - 1), vb = m2_b / (n - 1);
      const double se2 = (va + vb) / n;
      if (!(se2 > 0)) continue;
      const double t = std::fabs(mean_b - mean_a) / std::sqrt(se2);
      if (t < gates[k]) continue;
      const double z = welch_z(t, stats::welch_df(va / n, n, vb / n, n));
      out.push_back({static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(k), z});
    }
  }
  return out;
}

double share_crossing(const std::vector<Crossing>& c, const std::vector<double>& bounds,
                      std::size_t paths) {
  std::size_t crossed = 0;
  for (std::size_t i = 0; i < c.size();) {
    const std::uint32_t path = c[i].path;
    bool any = false;
    for (; i < c.size() && c[i].path == path; ++i) any = any || c[i].z >= bounds[c[i].look];
    crossed += any ? 1 : 0;
  }
  return static_cast<double>(crossed) / static_cast<double>(paths);
}

double small_term(const SequentialDesign& d, bool settled) {
  const double z = stats::normal_quantile(1 - d.alpha / 2);
  return (settled ? 1 : d.small_n_term) * z * z / 4;
}

// The looks and efficacy bounds SequentialTest takes with this stated
// level (SequentialTest::schedule, as design_cost calls it).
void schedule(SequentialPlan p, const SequentialPlan::StatedLevel& s, std::vector<double>& looks,
              std::vector<double>& bounds) {
  p.stated = s;
  SequentialTest test(std::move(p), Centre::kAmean, true);
  looks.clear();
  bounds.clear();
  const double k = test.plan().design.planned_looks;
  double n = std::max(static_cast<double>(test.plan().design.min_n), std::ceil(s.needed_n / k));
  for (;;) {
    const SequentialTest::Scheduled at = test.schedule(n, s.needed_n);
    looks.push_back(n);
    bounds.push_back(at.efficacy_bound);
    if (at.last) break;
    n = static_cast<double>(at.next_n);
  }
}

// The largest ratio in [0.2, 1] whose bounds cross at most alpha of the
// paths at these looks (at the stated level s with its eta).
double calibrated_ratio(const SequentialPlan& plan, SequentialPlan::StatedLevel s,
                        std::vector<double>& looks, double& type1) {
  const double alpha = plan.design.alpha;
  std::vector<double> bounds;
  const auto bounds_at = [&](double ratio) {
    s.level.nominal_alpha = alpha * ratio;
    schedule(plan, s, looks, bounds);
    return bounds;
  };
  const std::vector<double> widest = bounds_at(1);
  const std::vector<Crossing> crossings = simulate(looks, widest, kStatedPaths, kStatedSeed);
  type1 = share_crossing(crossings, bounds, kStatedPaths);
  if (type1 <= alpha) return 1;
  double lo = 0.2, hi = 1;
  double lo_type1 = share_crossing(crossings, bounds_at(lo), kStatedPaths);
  for (int i = 0; i < 12; ++i) {
    const double mid = (lo + hi) / 2;
    const double at = share_crossing(crossings, bounds_at(mid), kStatedPaths);
    if (at <= alpha) {
      lo = mid;
      lo_type1 = at;
    } else {
      hi = mid;
    }
  }
  type1 = lo_type1;
  bounds_at(lo);  // leaves `looks` as they are (they do not depend on the ratio)
  return lo;
}

}  // namespace

double efficacy_type1(const std::vector<double>& looks, const std::vector<double>& bounds,
                      std::size_t paths, std::uint64_t seed) {
  return share_crossing(simulate(looks, bounds, paths, seed), bounds, paths);
}

SequentialPlan::StatedLevel stated_level(const SequentialPlan& plan, const EtaFor& eta_for) {
  const SequentialDesign& d = plan.design;
  const double cv = d.plan_cv_pct / 100, delta = d.min_effect_pct / 100;
  const double per_eta2 = 2 * cv * cv / (delta * delta);
  SequentialPlan::StatedLevel s;
  const auto plan_at = [&](double ratio, double margin, double eta) {
    s.level.calibration.alpha_ratio = ratio;
    s.level.calibration.power_margin = margin;
    s.level.calibration.alpha = d.alpha;
    s.level.calibration.power = d.power;
    s.level.nominal_alpha = d.alpha * ratio;
    s.level.eta = eta;
    s.needed_n = eta * eta * per_eta2 + small_term(d, s.settled);
  };
  // Settled at its first look: all of alpha, as an estimated schedule.
  s.settled = true;
  plan_at(1, d.settled_margin, plan.settled_eta);
  const double first =
      std::max(static_cast<double>(d.min_n), std::ceil(s.needed_n / d.planned_looks));
  std::vector<double> bounds;
  if (d.settled_df > 0 && 2 * first - 2 >= d.settled_df) {
    schedule(plan, s, s.looks, bounds);
    return s;
  }
  s.settled = false;
  if (d.unsettled_alpha_ratio > 0) {  // fixed, for measuring
    plan_at(d.unsettled_alpha_ratio, d.power_margin,
            eta_for(d.alpha * d.unsettled_alpha_ratio, d.power_margin));
    schedule(plan, s, s.looks, bounds);
    return s;
  }
  plan_at(1, kLongMargin, eta_for(d.alpha, kLongMargin));
  const double margin = 2 * s.needed_n - 2 < kShortNeededDf ? kShortMargin : kLongMargin;
  // Twice: the looks of all of alpha, then those of the first ratio's drift.
  plan_at(1, margin, eta_for(d.alpha, margin));
  double type1 = 0;
  const double first_ratio = calibrated_ratio(plan, s, s.looks, type1);
  plan_at(first_ratio, margin, eta_for(d.alpha * first_ratio, margin));
  const double ratio = calibrated_ratio(plan, s, s.looks, type1);
  s.level.calibration.alpha_ratio = ratio;
  s.level.calibration.calibrated = true;
  s.level.nominal_alpha = d.alpha * ratio;
  s.type1 = type1;
  s.paths = kStatedPaths;
  return s;
}

}  // namespace schedlab
