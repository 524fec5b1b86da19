#include "analysis/sequential/sequential.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>

#include "analysis/sequential/stated_cv_level.h"

namespace schedlab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Root of an increasing f on [lo, hi] (widened until it brackets one).
template <class F>
double increasing_root(F f, double lo, double hi) {
  double flo = f(lo), fhi = f(hi);
  for (int i = 0; flo > 0 && i < 60; ++i) {
    lo -= (hi - lo);
    flo = f(lo);
  }
  for (int i = 0; fhi < 0 && i < 60; ++i) {
    hi += (hi - lo);
    fhi = f(hi);
  }
  if (flo > 0 || fhi < 0) throw std::runtime_error("no root in the search range");
  if (flo == 0) return lo;
  if (fhi == 0) return hi;
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      f, lo, hi, flo, fhi, boost::math::tools::eps_tolerance<double>(40), iterations);
  return (a + b) / 2;
}

std::vector<gs::LookRegion> planned_regions(const SequentialPlan& p,
                                            const std::vector<double>& efficacy, double eta) {
  std::vector<gs::LookRegion> r;
  for (std::size_t k = 0; k < p.fractions.size(); ++k)
    r.push_back({p.fractions[k], efficacy[k], eta * std::sqrt(p.fractions[k]) - p.same_bound[k]});
  return r;
}

// The t quantile of the normal probability of z: a bound on the z scale
// carried to Welch's t with df degrees of freedom.
double t_of_z(double z, double df) {
  if (z > 37) return kInf;
  if (z < -37) return -kInf;
  const double tail = boost::math::cdf(boost::math::complement(boost::math::normal(), z));
  return boost::math::quantile(boost::math::complement(boost::math::students_t(df), tail));
}

}  // namespace

// From the smaller tail, so that it keeps its precision.
double welch_z(double t, double df) {
  const boost::math::students_t dist(df);
  const double tail = boost::math::cdf(boost::math::complement(dist, std::fabs(t)));
  if (tail <= 0) return std::copysign(38.0, t);
  const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), tail));
  return std::copysign(z, t);
}

// 2 na nb / (na + nb): numerator and denominator are whole numbers held
// exactly, so with na == nb the one rounding gives n itself. The textbook
// 2 / (1/na + 1/nb) rounds twice and came to 116.99999999999999 at 117 (also
// 49, 93, 186, ...): a look due at 117 came a round later, at 118.
double look_n(std::size_t n_base, std::size_t n_variant) {
  const double na = static_cast<double>(n_base), nb = static_cast<double>(n_variant);
  return 2 * na * nb / (na + nb);
}

std::string_view decision_name(SequentialDecision d) {
  switch (d) {
    case SequentialDecision::kDifferent:
      return "different";
    case SequentialDecision::kSame:
      return "same";
    case SequentialDecision::kUndecided:
      break;
  }
  return "undecided";
}

std::string_view replan_name(SequentialReplan r) {
  switch (r) {
    case SequentialReplan::kGrow:
      return "grow";
    case SequentialReplan::kFree:
      return "free";
    case SequentialReplan::kFrozen:
      break;
  }
  return "frozen";
}

std::string design_error(const SequentialDesign& d) {
  // What the numerics compute: normal quantiles of 1 - alpha / 2 and of
  // power, and boundary crossing probabilities of alpha and 1 - power on a
  // grid. Below 1e-6, 1 - p rounds towards 1 (at 1e-16 it is 1, whose
  // quantile overflows) and the tail probabilities reach the grid's error;
  // no benchmark asks for more. An effect below 0.01% needs more iterations
  // than any run makes.
  if (!(d.alpha >= 1e-6 && d.alpha < 0.5))
    return fmt::format("alpha must be in [1e-06, 0.5), not {}", d.alpha);
  // The `same` interval's level is 1 - 2 (1 - power): power must exceed 0.5.
  if (!(d.power > 0.5 && d.power <= 1 - 1e-6))
    return fmt::format("power must be in (0.5, 0.999999], not {}", d.power);
  if (!(d.min_effect_pct >= 0.01 && d.min_effect_pct < 100))
    return fmt::format("min_effect_pct must be in [0.01, 100), not {}", d.min_effect_pct);
  // power_margin is no option of the user's: the message speaks of power.
  if (!(d.power_margin >= 0 && d.power_margin < 0.5))
    return fmt::format("power_margin must be in [0, 0.5), not {}", d.power_margin);
  if (!(d.unsettled_alpha_ratio == 0 ||
        (d.unsettled_alpha_ratio >= 0.1 && d.unsettled_alpha_ratio <= 1)))
    return fmt::format("unsettled_alpha_ratio must be 0 (calibrated) or from 0.1 to 1, not {}",
                       d.unsettled_alpha_ratio);
  if (!(d.short_alpha_ratio == 0 || (d.short_alpha_ratio >= 0.1 && d.short_alpha_ratio <= 1)))
    return fmt::format("short_alpha_ratio must be 0 (the table's) or from 0.1 to 1, not {}",
                       d.short_alpha_ratio);
  if (!(d.short_power_margin >= 0 && d.short_power_margin < 0.5))
    return fmt::format("short_power_margin must be in [0, 0.5), not {}", d.short_power_margin);
  if (!(d.short_below_ratio >= 0 && d.short_below_ratio < 1e6))
    return fmt::format("short_below_ratio must be in [0, 1e6), not {}", d.short_below_ratio);
  const double margin = std::max(
      d.unsettled_alpha_ratio > 0 ? d.power_margin : unsettled_max_margin(d.alpha, d.power),
      d.short_alpha_ratio > 0 ? d.short_power_margin : 0);
  if (!(d.power + margin < 1))
    return fmt::format(
        "power must be below {:g} (the plan asks for {:g} more, a margin for estimated "
        "variances, and that must stay below 1), not {}",
        1 - margin, margin, d.power);
  if (!(d.same_error >= 0 && d.same_error < 0.5))
    return fmt::format("same_error must be in [0, 0.5), not {}", d.same_error);
  if (!(d.variance_quantile >= 0 && d.variance_quantile < 1))
    return fmt::format("variance_quantile must be in [0, 1), not {}", d.variance_quantile);
  if (!(d.small_n_term >= 0 && d.small_n_term <= 10))
    return fmt::format("small_n_term must be from 0 to 10, not {}", d.small_n_term);
  if (!(d.free_from_df >= 0))
    return fmt::format("free_from_df must not be negative, not {}", d.free_from_df);
  if (!(d.settled_df >= 0))
    return fmt::format("settled_df must not be negative, not {}", d.settled_df);
  if (!(d.settled_margin >= 0 && d.power + d.settled_margin < 1))
    return fmt::format("power + settled_margin must be below 1, not {}",
                       d.power + d.settled_margin);
  // 0: none. From 0.01%: a CV nearer 0 plans a needed n below min_n, whose
  // looks are min_n and the next round whatever it is.
  if (!(d.plan_cv_pct == 0 || (d.plan_cv_pct >= 0.01 && d.plan_cv_pct < 1000)))
    return fmt::format("plan_cv_pct must be from 0.01 to under 1000 (% of the mean), not {}",
                       d.plan_cv_pct);
  if (d.min_n < 2) return fmt::format("min_n must be at least 2 (a variance), not {}", d.min_n);
  if (d.planned_looks < 1 || d.planned_looks > 200)
    return fmt::format("planned_looks must be from 1 to 200, not {}", d.planned_looks);
  if (d.grid < 4 || d.grid > 64) return fmt::format("grid must be from 4 to 64, not {}", d.grid);
  for (const gs::Spending& f : {d.spending, d.same_spending})
    if (f.kind == gs::SpendingKind::kKimDeMets && !(f.rho >= 0.5 && f.rho <= 5))
      return fmt::format("a Kim-DeMets spending's rho must be from 0.5 to 5, not {}", f.rho);
  return {};
}

namespace {

// The looks and efficacy bounds SequentialTest takes with this stated level
// (SequentialTest::schedule, as design_cost calls it).
void stated_schedule(SequentialPlan p, const SequentialPlan::StatedLevel& s,
                     std::vector<double>& looks, std::vector<double>& bounds) {
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

// plan.stated for design.plan_cv_pct (stated_cv_level.h): settled, a fixed
// ratio (for measuring), or the ratio calibrated at the looks, twice.
// eta_for(nominal alpha, margin): plan_sequential's drift.
SequentialPlan::StatedLevel stated_level(const SequentialPlan& plan,
                                         const std::function<double(double, double)>& eta_for) {
  const SequentialDesign& d = plan.design;
  const double cv = d.plan_cv_pct / 100, delta = d.min_effect_pct / 100;
  const double per_eta2 = 2 * cv * cv / (delta * delta);
  const double z_half = stats::normal_quantile(1 - d.alpha / 2);
  SequentialPlan::StatedLevel s;
  std::vector<double> bounds;
  const auto plan_at = [&](double ratio, double margin, double eta) {
    s.level.calibration = {ratio, margin, false, d.alpha, d.power};
    s.level.nominal_alpha = d.alpha * ratio;
    s.level.eta = eta;
    s.needed_n = eta * eta * per_eta2 + (s.settled ? 1 : d.small_n_term) * z_half * z_half / 4;
    stated_schedule(plan, s, s.looks, bounds);
  };
  // Settled at its first look: all of alpha, as an estimated schedule.
  s.settled = true;
  plan_at(1, d.settled_margin, plan.settled_eta);
  if (d.settled_df > 0 && 2 * s.looks.front() - 2 >= d.settled_df) return s;
  s.settled = false;
  if (d.unsettled_alpha_ratio > 0) {  // fixed, for measuring
    plan_at(d.unsettled_alpha_ratio, d.power_margin,
            eta_for(d.alpha * d.unsettled_alpha_ratio, d.power_margin));
    return s;
  }
  plan_at(1, kStatedLongMargin, eta_for(d.alpha, kStatedLongMargin));
  const double margin =
      2 * s.needed_n - 2 < kStatedShortNeededDf ? kStatedShortMargin : kStatedLongMargin;
  // The bounds of each ratio at the looks of the level planned so far.
  const auto bounds_at = [&](double ratio) {
    SequentialPlan::StatedLevel at = s;
    at.level.nominal_alpha = d.alpha * ratio;
    std::vector<double> looks, b;
    stated_schedule(plan, at, looks, b);
    return b;
  };
  // Twice: at the looks of all of alpha, then at those of the first ratio's drift.
  plan_at(1, margin, eta_for(d.alpha, margin));
  StatedRatio r = stated_ratio(s.looks, bounds_at, d.alpha, welch_z);
  if (r.ratio < 1) {  // else the same looks again: the same answer
    plan_at(r.ratio, margin, eta_for(d.alpha * r.ratio, margin));
    r = stated_ratio(s.looks, bounds_at, d.alpha, welch_z);
  }
  s.level.calibration = {r.ratio, margin, true, d.alpha, d.power};
  s.level.nominal_alpha = d.alpha * r.ratio;
  s.type1 = r.type1;
  s.paths = kStatedPaths;
  return s;
}

}  // namespace

SequentialPlan plan_sequential(const SequentialDesign& d) {
  if (auto e = design_error(d); !e.empty()) throw std::invalid_argument(e);
  SequentialPlan p;
  p.design = d;
  p.same_error = d.same_error > 0 ? d.same_error : (1 - d.power) / 2;
  p.fixed_eta = stats::normal_quantile(1 - d.alpha / 2) + stats::normal_quantile(d.power);
  for (int k = 1; k <= d.planned_looks; ++k)
    p.fractions.push_back(static_cast<double>(k) / d.planned_looks);
  p.settled_efficacy = gs::spending_bounds(d.spending, d.alpha, p.fractions, true, d.grid);
  p.same_bound = gs::spending_bounds(d.same_spending, 2 * p.same_error, p.fractions, true, d.grid);
  // P(different, the right way, before same) at drift eta.
  auto power_at = [&](const std::vector<double>& efficacy, double eta) {
    return gs::path_outcome(eta, planned_regions(p, efficacy, eta), d.grid).above;
  };
  // The drift that has power + margin with bounds spending `alpha`.
  auto eta_for = [&](double alpha, double margin, double lo) {
    const auto efficacy = alpha == d.alpha
                              ? p.settled_efficacy
                              : gs::spending_bounds(d.spending, alpha, p.fractions, true, d.grid);
    return increasing_root([&](double eta) { return power_at(efficacy, eta) - (d.power + margin); },
                           lo * p.fixed_eta, 1.5 * p.fixed_eta);
  };
  // A level for each first look from min_n up to the first settled one
  // (with settled_df 0, never settled: up to 4 more), the drift solved once
  // for each distinct ratio and margin.
  const auto settled_n = static_cast<std::size_t>(std::ceil((d.settled_df + 2) / 2));
  const std::size_t last_n =
      d.settled_df > 0 ? std::max(d.min_n, settled_n > 0 ? settled_n - 1 : 0) : d.min_n + 4;
  auto level_of = [&](const UnsettledCalibration& c) {
    SequentialPlan::UnsettledLevel level;
    level.calibration = c;
    level.nominal_alpha = d.alpha * c.alpha_ratio;
    for (const auto* v : {&p.unsettled, &p.unsettled_short})
      for (const auto& u : *v)
        if (u.calibration.alpha_ratio == c.alpha_ratio &&
            u.calibration.power_margin == c.power_margin)
          level.eta = u.eta;
    if (level.eta == 0) level.eta = eta_for(level.nominal_alpha, c.power_margin, 1);
    return level;
  };
  for (std::size_t n = d.min_n; n <= last_n; ++n) {
    const double df = 2.0 * n - 2;
    const SequentialPlan::UnsettledLevel level =
        level_of(d.unsettled_alpha_ratio > 0
                     ? UnsettledCalibration{d.unsettled_alpha_ratio, d.power_margin, false}
                     : unsettled_calibration(d.alpha, d.power, df));
    UnsettledCalibration short_row = level.calibration;
    short_row.below_ratio = 0;  // none, unless the table or the design has one
    if (d.short_alpha_ratio > 0)
      short_row = {d.short_alpha_ratio, d.short_power_margin, false, 0, 0, d.short_below_ratio};
    else if (d.unsettled_alpha_ratio == 0)
      short_row = unsettled_calibration(d.alpha, d.power, df, 0);
    if (!std::isfinite(short_row.below_ratio)) short_row.below_ratio = 0;  // no short row
    SequentialPlan::UnsettledLevel short_level = level_of(short_row);
    // The short level may plan no more than the long one: a first look is
    // short when its needed n at the long level is below the ratio, and a
    // resumed test, which only has the needed n at its own level, tells
    // which it was by the same ratio.
    short_level.eta = std::min(short_level.eta, level.eta);
    p.unsettled.push_back(level);
    p.unsettled_short.push_back(short_level);
  }
  const SequentialPlan::UnsettledLevel& first = p.unsettled.front();
  p.unsettled_alpha = first.nominal_alpha;
  p.efficacy = gs::spending_bounds(d.spending, p.unsettled_alpha, p.fractions, true, d.grid);
  p.eta = first.eta;
  p.settled_eta = eta_for(d.alpha, d.settled_margin, 0.5);
  p.inflation = (p.eta / p.fixed_eta) * (p.eta / p.fixed_eta);
  const auto regions = planned_regions(p, p.efficacy, p.eta);
  const auto h1 = gs::path_outcome(p.eta, regions, d.grid);
  const auto h0 = gs::path_outcome(0, regions, d.grid);
  p.power = h1.above;
  p.same_at_min_effect = h1.inner;
  p.expected_fraction_h1 = h1.expected_fraction;
  p.type1 = h0.above + h0.below;
  p.same_at_no_change = h0.inner;
  p.expected_fraction_h0 = h0.expected_fraction;
  if (d.plan_cv_pct > 0)
    p.stated =
        stated_level(p, [&](double alpha, double margin) { return eta_for(alpha, margin, 0.5); });
  return p;
}

const SequentialPlan::UnsettledLevel& SequentialPlan::unsettled_at(double first_n,
                                                                   double first_needed_n) const {
  const double i = std::floor(first_n) - static_cast<double>(design.min_n);
  const auto k =
      static_cast<std::size_t>(std::clamp(i, 0.0, static_cast<double>(unsettled.size() - 1)));
  const UnsettledLevel& s = unsettled_short[k];
  return first_needed_n < s.calibration.below_ratio * first_n ? s : unsettled[k];
}

SideMoments side_moments(std::span<const double> x, Centre centre) {
  if (centre == Centre::kMedian)
    throw std::invalid_argument(
        "a sequential test compares means: the median has none (amean, gmean or hmean)");
  if (x.size() < 2)
    throw std::invalid_argument(
        fmt::format("a side needs 2 samples for a variance, not {}", x.size()));
  SideMoments m;
  m.n = x.size();
  double sum = 0;
  std::vector<double> v(x.begin(), x.end());
  for (double& s : v) {
    if (!std::isfinite(s)) throw std::invalid_argument("a sample is not a finite number");
    if (centre != Centre::kAmean && !(s > 0))
      throw std::invalid_argument(
          fmt::format("{} needs positive samples, not {}", to_string(centre), s));
    if (centre == Centre::kGmean) s = std::log(s);
    if (centre == Centre::kHmean) s = 1 / s;
    sum += s;
  }
  m.mean = sum / static_cast<double>(m.n);
  double ss = 0;
  for (double s : v) ss += (s - m.mean) * (s - m.mean);
  m.variance = ss / static_cast<double>(m.n - 1);
  return m;
}

SequentialTest::SequentialTest(SequentialPlan plan, Centre centre, bool higher_is_better,
                               std::span<const PastLook> past)
    : plan_(std::move(plan)),
      centre_(centre),
      higher_is_better_(higher_is_better),
      efficacy_paths_(0, plan_.design.grid),
      same_paths_(0, plan_.design.grid) {
  if (centre == Centre::kMedian) side_moments({}, centre);  // throws its message
  for (const PastLook& at : past) {
    if (finished_) throw std::invalid_argument("a look after the last one");
    if (!looks_.empty() && !(at.n > looks_.back().n))
      throw std::invalid_argument("looks' iteration counts must increase");
    if (!(at.needed_n > 0 && at.fraction > 0))
      throw std::invalid_argument("a past look needs its fraction and needed n");
    double bound = 0, same = 0;
    take_look(at, false, bound, same);
  }
}

double SequentialTest::take_look(const PastLook& at, bool last, double& bound, double& same_bound) {
  if (looks_.empty()) {
    settled_ = settled_at(at.n);
    // Its needed n at its own level: below the short ratio exactly when it
    // was at the long one (unsettled_short's eta is at most unsettled's).
    level_ = needed_terms(at.n, at.needed_n);
  }
  const bool final_look = last || next_is_last_ || at.fraction >= 1;
  const double alpha = level_.nominal_alpha;
  const double same_alpha = 2 * plan_.same_error;
  const double target = final_look ? alpha : gs::spent(plan_.design.spending, alpha, at.fraction);
  const double same_target =
      final_look ? same_alpha : gs::spent(plan_.design.same_spending, same_alpha, at.fraction);
  // The paths' time is n: the statistics of looks at n_j and n_k correlate
  // as sqrt(n_j / n_k), whatever the spending fractions are.
  bound = gs::bound_for(efficacy_paths_, at.n, target - spent_);
  same_bound = gs::bound_for(same_paths_, at.n, same_target - same_spent_);
  spent_ = std::max(spent_, target);
  same_spent_ = std::max(same_spent_, same_target);
  const gs::Exits crossed = efficacy_paths_.exits({at.n, bound, 0});
  exited_ += crossed.above + crossed.below;
  efficacy_paths_.advance({at.n, bound, 0});
  same_paths_.advance({at.n, same_bound, 0});
  looks_.push_back(at);
  bounds_.push_back(bound);
  finished_ = final_look;
  // The next look: at the next planned fraction of this look's needed n,
  // a round later at least; the one that reaches the needed n is the last.
  const int k = plan_.design.planned_looks;
  const double j = std::floor(at.n * k / at.needed_n) + 1;
  next_is_last_ = j >= k;
  next_n_ = std::max(at.n + 1, std::ceil((next_is_last_ ? k : j) / k * at.needed_n));
  return target;
}

bool SequentialTest::settled_at(double n) const {
  return plan_.design.settled_df > 0 && 2 * n - 2 >= plan_.design.settled_df;
}

SequentialTest::NeededTerms SequentialTest::needed_terms(double first_n,
                                                         double first_needed_n) const {
  const SequentialDesign& d = plan_.design;
  const double z_half = stats::normal_quantile(1 - d.alpha / 2);
  if (plan_.stated) {  // one level, fixed before any data
    const SequentialPlan::StatedLevel& s = *plan_.stated;
    return {s.level.eta, 0, (s.settled ? 1 : d.small_n_term) * z_half * z_half / 4,
            s.level.nominal_alpha};
  }
  if (settled_at(first_n)) return {plan_.settled_eta, 0, z_half * z_half / 4, d.alpha};
  const SequentialPlan::UnsettledLevel& u = plan_.unsettled_at(first_n, first_needed_n);
  return {u.eta, d.variance_quantile, d.small_n_term * z_half * z_half / 4, u.nominal_alpha};
}

SequentialTest::NeededTerms SequentialTest::first_terms(double first_n, double per_eta2) const {
  const NeededTerms long_level = needed_terms(first_n);
  return needed_terms(first_n, long_level.eta * long_level.eta * per_eta2 + long_level.small_n);
}

SequentialTest::PastLook SequentialTest::replanned(double n, double estimate) const {
  PastLook at{n, 0, estimate};
  if (!looks_.empty()) {
    if (plan_.design.replan == SequentialReplan::kFrozen) at.needed_n = looks_.front().needed_n;
    // 2n - 2: the pooled degrees of freedom of n a side.
    const bool settled = plan_.design.free_from_df > 0 && 2 * n - 2 >= plan_.design.free_from_df;
    if (plan_.design.replan == SequentialReplan::kGrow && !settled && !settled_)
      at.needed_n = std::max(estimate, looks_.back().needed_n);
  }
  const double first_fraction = 1.0 / plan_.design.planned_looks;
  at.fraction =
      looks_.empty() ? std::min(n / at.needed_n, first_fraction) : n / looks_.back().needed_n;
  return at;
}

SequentialTest::Scheduled SequentialTest::schedule(double n, double estimate, bool last) {
  if (finished_)
    throw std::logic_error(
        fmt::format("the sequential test ended at look {}: no alpha is left", looks_.size()));
  Scheduled s;
  s.at = replanned(n, estimate);
  s.alpha_spent = take_look(s.at, last, s.efficacy_bound, s.same_bound);
  s.next_n = static_cast<std::size_t>(next_n_);
  s.last = finished_;
  return s;
}

double SequentialTest::pct_of(double difference) const {
  double ratio = 0;  // variant's centre / baseline's - 1
  switch (centre_) {
    case Centre::kAmean:
      ratio = difference / std::fabs(base_mean_);
      break;
    case Centre::kGmean:
      ratio = std::expm1(difference);
      break;
    case Centre::kHmean:
      ratio = base_mean_ + difference > 0 ? base_mean_ / (base_mean_ + difference) - 1 : kInf;
      break;
    case Centre::kMedian:
      break;
  }
  return (higher_is_better_ ? 100 : -100) * ratio;
}

SequentialLook SequentialTest::look(std::span<const double> base, std::span<const double> variant,
                                    bool last) {
  if (finished_)
    throw std::logic_error(
        fmt::format("the sequential test ended at look {}: no alpha is left", looks_.size()));
  SequentialLook l;
  l.n_base = base.size();
  l.n_variant = variant.size();
  l.look = looks_.size();
  l.same_level = 1 - 2 * plan_.same_error;
  const std::size_t min_n = std::max<std::size_t>(plan_.design.min_n, 2);
  auto skip = [&](std::string why) {
    l.reason = std::move(why);
    if (last) finished_ = l.last = true;
    return l;
  };
  if (base.size() < min_n || variant.size() < min_n)
    return skip(fmt::format("{} and {} samples: the first look needs {} a side", base.size(),
                            variant.size(), min_n));
  const double na = static_cast<double>(base.size()), nb = static_cast<double>(variant.size());
  const double n = look_n(base.size(), variant.size());
  l.n = n;
  l.next_n = static_cast<std::size_t>(looks_.empty() ? min_n : next_n_);
  if (!looks_.empty() && !(n > looks_.back().n))
    return skip("no new iterations since the last look");
  if (!last && n < static_cast<double>(l.next_n))
    return skip(fmt::format("the next look is due at {} iterations a side", l.next_n));
  const SideMoments a = side_moments(base, centre_), b = side_moments(variant, centre_);
  if (centre_ == Centre::kAmean && a.mean == 0)
    throw std::invalid_argument("the baseline's mean is 0: a change in % is undefined");
  const double se2 = a.variance / na + b.variance / nb;
  if (!(se2 > 0)) return skip("no variance on either side");
  const double d = b.mean - a.mean, se = std::sqrt(se2);
  const double delta = plan_.design.min_effect_pct / 100;
  double margin = 0;  // min_effect on the transformed scale (the smaller side)
  switch (centre_) {
    case Centre::kAmean:
      margin = delta * std::fabs(a.mean);
      break;
    case Centre::kGmean:
      margin = std::log1p(delta);
      break;
    case Centre::kHmean:
      margin = a.mean * delta / (1 + delta);
      break;
    case Centre::kMedian:
      break;
  }
  // se^2 n is the variance a unit of n brings. The last term is Guenther's
  // correction of a normal n to a t-test's (z^2 / 4, 1981), design.small_n_term
  // times (1 by default; 2 with the earlier `grow` rule, whose power it set).
  NeededTerms terms = looks_.empty() ? needed_terms(n) : level_;  // its variance_quantile
  // The variance in the needed n is taken at its chi2_df(variance_quantile)
  // limit, s^2 df / chi2_df(q): by default the median-unbiased size (q 0.5;
  // s^2 is skewed); a settled test takes s^2 as it is. With a few degrees of
  // freedom low draws of s^2 bring the last look early on a variance that
  // also makes |t| large: the calibrated level of a test not settled
  // (design.unsettled_alpha_ratio) is what holds alpha against it.
  const double pooled_df = na + nb - 2;
  const double q = terms.variance_quantile;
  const double unbias =
      q > 0 ? pooled_df / boost::math::quantile(boost::math::chi_squared(pooled_df), q) : 1;
  const double known = plan_.design.plan_cv_pct / 100;
  // The needed n per unit of eta^2.
  const double per_eta2 =
      known > 0 ? 2 * known * known / (delta * delta) : se2 * unbias * n / (margin * margin);
  if (looks_.empty()) terms = first_terms(n, per_eta2);
  l.needed_n = terms.eta * terms.eta * per_eta2 + terms.small_n;
  const PastLook at = replanned(n, l.needed_n);
  l.needed_n = at.needed_n;
  // The first look waits for the first planned fraction of the needed n as
  // the variance says it now: the variance is no look at the difference,
  // and the first look spends next to nothing (2.7e-12 of alpha 0.05 at
  // t = 0.1), so when it comes barely matters.
  const double first_due = l.needed_n / plan_.design.planned_looks;
  if (looks_.empty() && !last && n < first_due) {
    l.next_n = static_cast<std::size_t>(std::ceil(first_due));
    return skip(fmt::format("the first look is due at {} iterations a side", l.next_n));
  }
  l.fraction = at.fraction;

  l.analysed = true;
  l.look = looks_.size() + 1;
  l.t = d / se;
  l.df = stats::welch_df(a.variance / na, na, b.variance / nb, nb);
  l.z = welch_z(l.t, l.df);
  // The stage-wise p-value: earlier crossings plus |Z| >= |z| here. A test
  // not settled tests at alpha x unsettled_alpha_ratio, the nominal level
  // whose actual type I is alpha: its p-value is carried to the stated scale
  // by the same ratio, so that `different` is p <= alpha, as when settled.
  const gs::Exits here = efficacy_paths_.exits({n, std::fabs(l.z), 0});
  const double calibration = terms.nominal_alpha / plan_.design.alpha;
  l.p_value = std::min(1.0, (exited_ + here.above + here.below) / calibration);
  base_mean_ = a.mean;
  z_ = l.z;
  se_ = se;
  df_ = l.df;
  l.alpha_spent = take_look(at, last, l.efficacy_bound, l.same_bound);
  l.next_n = static_cast<std::size_t>(next_n_);
  l.nominal_alpha = l.efficacy_bound == kInf ? 0 : std::erfc(l.efficacy_bound * M_SQRT1_2);
  l.pct = pct_of(d);
  const double half = t_of_z(l.same_bound, l.df) * se;
  const double lo = pct_of(d - half), hi = pct_of(d + half);
  l.same_pct = {std::min(lo, hi), std::max(lo, hi)};
  if (std::fabs(l.z) >= l.efficacy_bound)
    l.decision = SequentialDecision::kDifferent;
  else if (l.same_pct.low > -plan_.design.min_effect_pct &&
           l.same_pct.high < plan_.design.min_effect_pct)
    l.decision = SequentialDecision::kSame;
  if (l.decision != SequentialDecision::kUndecided) finished_ = true;
  l.last = finished_;
  return l;
}

AdjustedInterval SequentialTest::adjusted_interval() const {
  if (looks_.empty()) throw std::logic_error("no look has been analysed");
  std::vector<double> t;
  for (const auto& l : looks_) t.push_back(l.n);
  // At the level the bounds spend (nominal for a test not settled, whose
  // actual level is 1 - alpha by the calibration): it excludes no change
  // exactly when the test says `different`.
  const double alpha = plan_.design.alpha;
  const double nominal = level_.nominal_alpha;
  const auto drift = gs::stagewise_interval(t, bounds_, z_, 1 - nominal, plan_.design.grid);
  AdjustedInterval a;
  a.level = 1 - alpha;
  // rpact's final interval of a difference of means is the drift's times
  // the standard error. With a few iterations a side that puts it beside
  // the observed change (t = 14 at 6 df is z = 4.5: the interval would be
  // centred on 4.5 se, not 14 se), so each end is carried back through
  // Welch's t distribution, as z came from t; for many degrees of freedom
  // the two agree (tests/analysis/sequential/sequential_r_test.cc checks rpact's on
  // the drift scale, gs::stagewise_interval).
  a.difference = {t_of_z(drift.low, df_) * se_, t_of_z(drift.high, df_) * se_};
  a.difference_estimate = t_of_z(drift.estimate, df_) * se_;
  const double p1 = pct_of(a.difference.low), p2 = pct_of(a.difference.high);
  a.pct = {std::min(p1, p2), std::max(p1, p2)};
  a.pct_estimate = pct_of(a.difference_estimate);
  return a;
}

double t_test_power(double alpha, double effect, double n) {
  const double df = 2 * n - 2;
  const double q = stats::t_quantile(1 - alpha / 2, df);
  const double noncentrality = effect * std::sqrt(n / 2);
  // Boost's series fails past a noncentrality of 65536 (a CV of 1e-5 %:
  // "itrunc ... can not be represented"). Past 1e4 the power is 1 within
  // 1e-10: T' < q needs Z < -1e4 / 2 or S > 1e4 / (2 q) with S^2 a chi-square
  // over df >= 2, and q <= 1000 for alpha >= 1e-6 (design_error).
  if (noncentrality > 1e4) return 1;
  const boost::math::non_central_t nct(df, noncentrality);
  return boost::math::cdf(boost::math::complement(nct, q));
}

std::size_t fixed_n_for_power(double alpha, double power, double min_effect_pct, double cv_pct) {
  const double effect = min_effect_pct / cv_pct;
  // The n is about 2 (z_{1 - alpha/2} + z_power)^2 / effect^2: at the
  // bounds design_error and design_cost take (alpha 1e-6, power 1 - 1e-6,
  // a 0.01% effect at a CV under 1000%) about 1.9e12, so 2^53 (where a
  // double stops counting every integer) is never reached by valid input.
  constexpr std::size_t kMaxN = std::size_t{1} << 53;
  const auto enough = [&](std::size_t n) {
    return t_test_power(alpha, effect, static_cast<double>(n)) >= power;
  };
  // The power grows with n: double up to a bracket, then halve it (a
  // noncentral t a step from 2 to millions took hours at a 0.01% effect).
  std::size_t lo = 1, hi = 2;  // not enough at lo (n = 1 has no variance), enough at hi
  while (!enough(hi)) {
    if (hi >= kMaxN)
      throw std::invalid_argument(fmt::format(
          "the fixed n of power {:g} at a change of {:g}% with a CV of {:g}% is past 2^53 "
          "iterations a side",
          power, min_effect_pct, cv_pct));
    lo = hi;
    hi = std::min(2 * hi, kMaxN);
  }
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (enough(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace schedlab
