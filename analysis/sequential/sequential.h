// A group sequential A/B test of one variant against the baseline: after
// each interleaved round the runner hands it both sides' samples and it
// says `different`, `same` or `undecided`, at stated error rates, with the
// sequentially adjusted p-value and interval.
//
// The test. Each side's samples are one value per iteration (independent
// units; interval metrics give one centre per iteration), transformed by
// the metric's centre: amean as they are, gmean by log, hmean by 1/x (the
// median has no such test: refused). The statistic is Welch's t of the
// difference of the transformed means, mapped to the normal scale through
// its own distribution, z = Phi^-1(F_t(t; Welch df)), as rpact does for
// means with unknown variances (normalApproximation = FALSE): the variance
// is estimated, and with 3-10 iterations a side a plain z on that estimate
// would reject far too often. Boundaries are on that z.
//
// Information. The standard error of the difference gives the information
// I = 1 / se^2; the design fixes the maximum I_max = (eta / delta)^2, delta
// being min_effect in the transformed unit (a share of the baseline's
// transformed mean) and eta the drift at which the design has its power.
// With n iterations a side (the harmonic mean of the two sides' counts) and
// the pooled variance v, I = n / (2 v), so the design needs about
// N = 2 v eta^2 / delta^2 + z_{1-alpha/2}^2 / 2 iterations a side. N is
// re-estimated from the variance at every look (Mehta & Tsiatis 2001,
// "Flexible sample size considerations using information-based interim
// monitoring"): a quiet benchmark needs a few iterations, a noisy one
// many. By default N follows each look's estimate, down as well
// (design.replan): the variance at its median-unbiased size (s^2 df /
// chi2_df(0.5), design.variance_quantile), Guenther's (1981) correction of
// a normal n to a t-test's once (design.small_n_term) and eta planned for
// power + a calibrated margin. A low variance at one look brings the next
// look, and the last one that spends all of alpha, early, while the
// variance (the same samples, most of them) is still low and |t| high: with
// a first look of 4-16 degrees of freedom, free re-planning had type I
// 0.059 (CV 2%) and 0.0765 (CV 4%) at alpha 0.05. So such a test spends
// alpha times a ratio below 1, with a power margin, both by its first
// look's degrees of freedom (and, where the table has a short row, by how
// many looks follow it: none has), the levels at which seeded simulation
// measured its type I just below alpha and its power just above power (a
// calibrated nominal level: sequential_calibration.h, analysis/README.md;
// at alpha 0.05 and power 0.8: x 0.75, margin 0.045, from 4 degrees of
// freedom; x 0.80, margin 0.025, from 8). A test whose first look
// has 12 degrees of freedom or more is settled (design.settled_df): it
// spends alpha itself, with s^2 as it is and a power margin of 0.02; its
// variance is estimated well enough that alpha holds (CV 10%: 0.0486-0.0516
// at 20,000 trials). The rule of the rounds before (N may only grow, Denne
// & Jennison 2000, the variance at its upper 65% limit and twice
// Guenther's term) held alpha with power 0.89-0.91 at CV 2% and 4%, and
// 14-19% more iterations than the constant level (x 0.7, margin 0.04) of
// the round before at min_effect (design.replan = grow); the level by the
// first look: type I 0.040-0.051, power 0.807-0.835, 7.88-8.10 and
// 25.47-26.09 iterations at min_effect with CV 2% and 4% (x 0.7: 0.038-0.044,
// 0.80-0.85, 7.95-8.48 and 26.75-27.04).
//
// Looks. The first look comes at min_n iterations a side, or later, when
// n reaches N / planned_looks by the variance so far (the variance is no
// look at the difference). Each look plans the next from its own N: at the
// next planned fraction j / planned_looks of N, at least one round later;
// when that reaches N, the next look is the last. A look's spending
// fraction is n over the previous look's N (the first look's own, at most
// 1 / planned_looks), and the correlation of the looks' statistics is that
// of their n (sqrt of the ratio), as for a fixed variance. So when a look
// is taken, how much alpha it spends and whether it is the last are all
// fixed by earlier looks, not by the variance it is judged by: with looks
// triggered by the current estimate, a look comes exactly when the
// variance happens to be low (and |t| high), and a simulation saw `same`
// called at a change of min_effect 22% of the time where its interval
// allowed 20%. What is left of that dependence (the variance at one look
// plans the next) is what the needed n growing only, and the variance at
// its upper confidence limit, take away (above). A look at an unplanned
// n (the runner passing a round, failed iterations) is exact: bounds are computed for the looks as
// taken (Lan-DeMets). The last look spends all that is left of alpha whatever its fraction,
// over-run or under-run (Jennison & Turnbull 2000, section 7.2.2); so does a look the caller marks
// `last` (the iteration cap). No look follows the last.
//
// Decisions at a look k with bound c_k:
//   different  |z| >= c_k: efficacy, two-sided Lan-DeMets alpha spending
//              with design.spending (analysis/sequential/group_sequential.h: O'Brien-
//              Fleming-type by default, Pocock-type or Kim-DeMets).
//   same       otherwise, when the repeated confidence interval of the %
//              change at level 1 - 2 gamma lies within +-min_effect_pct. The
//              interval is d +- e_k se, e_k the bound of a second
//              spending (design.same_spending) at two-sided level 2 gamma over
//              the same looks (t-mapped as z is), so it covers the true
//              change at every look at once with probability >= 1 - 2 gamma
//              (Jennison & Turnbull 2000, ch. 9): a change of min_effect or
//              more is called `same` at most gamma of the time. gamma =
//              (1 - power) / 2 (an 80% interval at power 0.8): of all
//              designs tried it needed the least maximum information and
//              the fewest iterations at min_effect (gamma = 1 - power: 0.80
//              of the fixed n, planned; (1 - power) / 2: 0.78).
//   undecided  neither; at the last look the point stops undecided.
// The `same` stop is non-binding: the efficacy bounds ignore it, so
// P(different | no change) <= alpha holds whatever `same` does. The design's
// maximum information is found (numerically) so that P(different before
// same | change of min_effect) = power + power_margin at the planned looks.
//
// Reported p-value and interval: stage-wise ordering (Armitage, McPherson
// & Rowe 1969; Tsiatis, Rosner & Mehta 1984), as rpact's final p-value and
// final confidence interval: outcomes are ordered by the look of stopping,
// then by z; the p-value is the probability under no change of an outcome
// at least as extreme, computed with the efficacy bounds of the looks taken
// (non-binding: as if the `same` stop were not there). A test not settled
// divides it by its level's alpha ratio and takes its interval at the nominal
// level its bounds spend (stated as 1 - alpha), so both agree with its
// decision. Only the look the test stops at gives an adjusted value; an
// earlier look's is what it would be if the test stopped there.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/sequential/group_sequential.h"
#include "analysis/sequential/sequential_calibration.h"
#include "analysis/stats/stats.h"
#include "base/centre.h"

namespace schedlab {

enum class SequentialDecision { kDifferent, kSame, kUndecided };
std::string_view decision_name(SequentialDecision d);  // "different" | "same" | "undecided"

// How the needed n follows the variance from look to look.
//   grow    the largest needed n of any look so far (Denne & Jennison 2000:
//           a re-planning that may only grow n): the default of the rounds
//           before, with variance_quantile 0.35 and small_n_term 2.
//   free    each look's own estimate, which may shrink n: the default. A low
//           variance at one look brings the next (and the last) look early,
//           when the variance, shared by most of the samples, is still low
//           and |t| high (at the nominal alpha 0.05, type I 0.059-0.0765 with
//           a first look of a few degrees of freedom): see
//           unsettled_alpha_ratio.
//   frozen  the first look's estimate, never re-planned: type I 0.050-0.054,
//           but from 3 iterations a side it plans too short a test (power
//           0.71-0.83 at min_effect).
enum class SequentialReplan { kGrow, kFree, kFrozen };
std::string_view replan_name(SequentialReplan r);  // "grow" | "free" | "frozen"

struct SequentialDesign {
  double alpha = 0.05;        // two-sided: P(different | no change)
  double power = 0.8;         // P(different | a change of min_effect_pct)
  double min_effect_pct = 3;  // of the baseline's centre
  std::size_t min_n = 3;      // iterations a side before the first look (>= 2)
  int planned_looks = 10;     // looks at information fractions k / planned_looks
  double same_error = 0;      // gamma, P(same | a change of min_effect); 0: (1 - power) / 2
  // Added to `power` when the maximum information of a test not settled is
  // planned, with a fixed unsettled_alpha_ratio (> 0; with the calibrated
  // one, 0, the calibration's margin): the plan is normal theory with known
  // variance, and Welch's t on estimated variances (the variance fixing when
  // the last look comes) lost 2-5 points of power at min_effect in
  // bench/sequential_bench.cc without it.
  double power_margin = 0.04;
  // The needed n's small-sample terms (SequentialTest::look): the variance
  // is taken at its upper (1 - variance_quantile) confidence limit,
  // s^2 df / chi2_df(variance_quantile) (0: s^2 as it is), and
  // small_n_term times Guenther's (1981) z_{1-alpha/2}^2 / 4 is added.
  double variance_quantile = 0.5;
  double small_n_term = 1;
  int grid = 16;               // Jennison & Turnbull's r (analysis/sequential/group_sequential.h)
  gs::Spending spending;       // of alpha by the efficacy bounds
  gs::Spending same_spending;  // of 2 gamma by the `same` interval's bounds
  // How each look's variance re-plans the needed n (hence the looks'
  // spending fractions and the last look): see SequentialReplan.
  SequentialReplan replan = SequentialReplan::kFree;
  // With `grow`: from a look whose pooled degrees of freedom (2n - 2) reach
  // this, the needed n follows that look's estimate, down as well (0:
  // never). A measured route (analysis/README.md), not the default.
  double free_from_df = 0;
  // From a first look with at least this many pooled degrees of freedom
  // (2n - 2; 0: never), the variance is estimated well enough to plan as
  // normal theory does: the needed n follows each look's estimate (free), s^2
  // as it is, Guenther's term once, and power planned at power +
  // settled_margin. Whether a test is settled is fixed at its first look
  // (n = the needed n / planned_looks, at least min_n: with min_effect 3%,
  // about 15-20 a side at a CV of 10%, 3-5 at 4%). 12 (7 a side): at 20, the
  // few tests at a CV of 10% whose first look came at 7-10 a side on a low
  // variance took the calibrated nominal level (unsettled_alpha_ratio) and
  // its larger n, and the mean iterations at min_effect rose from 145.96 to
  // 146.49 (goal 146.29; CV 10%, min 3, normal, 20,000 trials). The few
  // degrees of freedom of CV 2% and 4% (first looks at 3-5 a side) seldom
  // settle (analysis/README.md has the figures).
  double settled_df = 12;
  double settled_margin = 0.02;
  // A test that is not settled spends alpha x a ratio below 1 (and plans
  // its power at that level): the nominal level at which its actual type I
  // is alpha. Its looks follow a variance estimated from 4-10 degrees of
  // freedom, which brings the last look early when the variance is low and
  // |t| high; at the nominal alpha, free re-planning had type I 0.059 (CV
  // 2%) and 0.0765 (CV 4%). 0: the ratio and power margin calibrated by
  // Monte Carlo for the design's alpha and power and the first look's
  // degrees of freedom (unsettled_calibration, sequential_calibration.h);
  // > 0: this ratio and power_margin for every such test (for measuring:
  // the rounds before took 0.7 and 0.04); 1: none.
  double unsettled_alpha_ratio = 0;
  // For measuring a short row (sequential_calibration.h): > 0 replaces the
  // short level, alpha x short_alpha_ratio with short_power_margin, for a
  // first look whose needed n (at the long level) is below
  // short_below_ratio times its n. 0: the table's short row, none with a
  // fixed unsettled_alpha_ratio.
  double short_alpha_ratio = 0;
  double short_power_margin = 0;
  double short_below_ratio = 0;
  // > 0: the looks are planned from this CV (% of the mean), stated before
  // any data (`iterations: {stop: sequential, plan_cv_pct: 4}`, `schedlab
  // design --plan-cv`), instead of the samples' variance: every look's needed
  // n is N = eta^2 2 (cv / min_effect)^2 + the small-sample term, so the
  // looks are the ones design_cost plans at that CV and nothing the samples
  // say moves them; each look's statistic still estimates the variance
  // (Welch's t). The bounds spend the level calibrated at those looks
  // (SequentialPlan::stated, stated_cv_level.h) unless unsettled_alpha_ratio
  // fixes one (for measuring). Power holds only when the CV is near it
  // (analysis/README.md).
  double plan_cv_pct = 0;
};
// One line naming the bad field, e.g. "power must be in (0.5, 1), not 1.5";
// empty when the design is sound.
std::string design_error(const SequentialDesign& d);

// What a design works out to, once: its maximum information and what it
// promises at the planned looks (t = k / planned_looks).
struct SequentialPlan {
  SequentialDesign design;
  double same_error = 0;           // gamma (design.same_error, or (1 - power) / 2)
  double fixed_eta = 0;            // z_{1 - alpha/2} + z_{power}: a fixed design's drift
  double eta = 0;                  // this design's drift at t = 1 for a change of min_effect
  double settled_eta = 0;          // the same at power + settled_margin (design.settled_df)
  // The level of a test not settled, by its first look's n a side:
  // unsettled[i] for a first look at min_n + i (a fractional n: its floor),
  // the last for any later one.
  struct UnsettledLevel {
    UnsettledCalibration calibration;  // alpha ratio, power margin, whether measured
    double nominal_alpha = 0;          // alpha x calibration.alpha_ratio
    double eta = 0;                    // drift for power + power margin at that level
  };
  std::vector<UnsettledLevel> unsettled;
  // The short level of each first n (a test with few looks after its first,
  // sequential_calibration.h), for a first look whose needed n at
  // unsettled's level is below calibration.below_ratio times its n; where
  // the table has none, unsettled's level with below_ratio 0.
  std::vector<UnsettledLevel> unsettled_short;
  // first_needed_n: the first look's needed n at unsettled's level (+inf:
  // unsettled's level).
  const UnsettledLevel& unsettled_at(
      double first_n, double first_needed_n = std::numeric_limits<double>::infinity()) const;
  // Of a first look at min_n: unsettled.front()'s nominal alpha (eta is its
  // eta, efficacy its bounds, power its planned power).
  double unsettled_alpha = 0;
  // With design.plan_cv_pct: the one level of every test, fixed before any
  // data by the looks that CV plans (stated_cv_level.h); its eta plans them.
  struct StatedLevel {
    UnsettledLevel level;       // nominal alpha, eta; calibration.calibrated: by simulation
    bool settled = false;       // the first look is settled (all of alpha, settled_margin)
    double needed_n = 0;        // N at the stated CV
    std::vector<double> looks;  // their n a side (uncapped)
    double type1 = 0;           // the simulated efficacy-only type I at the level (0: none run)
    std::size_t paths = 0;      // of that simulation
  };
  std::optional<StatedLevel> stated;
  double inflation = 0;            // (eta / fixed_eta)^2: I_max over the fixed design's information
  std::vector<double> fractions;   // planned
  std::vector<double> efficacy;    // c_k at the planned fractions, at unsettled_alpha
  std::vector<double> settled_efficacy;  // the same at alpha (settled_eta's)
  std::vector<double> same_bound;  // e_k, of the 1 - 2 gamma repeated interval
  double power = 0;                // computed: power + unsettled.front()'s margin
  double same_at_min_effect = 0;   // P(same | change of min_effect)
  double type1 = 0;                // P(different | no change), <= alpha
  double same_at_no_change = 0;    // P(same | no change)
  double expected_fraction_h1 = 0;  // E[t at stop] at a change of min_effect
  double expected_fraction_h0 = 0;  // and at no change
};
// Throws std::invalid_argument with design_error's line.
SequentialPlan plan_sequential(const SequentialDesign& d);

// The information a side's samples give the comparison, on the centre's
// transformed scale (log for gmean, 1/x for hmean).
struct SideMoments {
  std::size_t n = 0;
  double mean = 0;      // of the transformed values
  double variance = 0;  // n - 1
};
// Throws std::invalid_argument for a median centre, fewer than 2 samples
// or (gmean, hmean) a value that is not positive.
SideMoments side_moments(std::span<const double> x, Centre centre);

struct SequentialLook {
  bool analysed = false;  // false: no look this round (see `reason`); nothing spent
  std::string reason;     // why not analysed
  std::size_t look = 0;   // analyses so far, this one included
  bool last = false;      // the final look: alpha all spent, the test is over
  SequentialDecision decision = SequentialDecision::kUndecided;
  std::size_t n_base = 0, n_variant = 0;
  double n = 0;               // iterations a side (harmonic mean of the two counts)
  double fraction = 0;        // spending fraction: n / the previous look's needed n
  double needed_n = 0;        // this look's estimate of the iterations a side the design needs
  std::size_t next_n = 0;     // iterations a side at which the next look is due
  double t = 0, df = 0;       // Welch's t and degrees of freedom
  double z = 0;               // t mapped to the normal scale
  double efficacy_bound = 0;  // |z| >= this: different (+inf: none)
  double nominal_alpha = 0;   // 2 (1 - Phi(efficacy_bound)): the level this look tests at
  double alpha_spent = 0;     // through this look
  double same_bound = 0;      // e_k
  double same_level = 0;      // 1 - 2 gamma
  stats::Interval same_pct;   // the repeated interval of the % change
  double pct = 0;             // the % change, positive is better
  double p_value = 1;         // stage-wise ordering, two-sided (not settled: / its alpha ratio)
};

// The stage-wise adjusted interval and median-unbiased estimate at the
// latest look, in % (positive is better) and on the transformed difference:
// gs::stagewise_interval on the z scale, each end carried back to Welch's t
// (t_df^-1(Phi(.))) and times the standard error.
struct AdjustedInterval {
  double level = 0.95;  // 1 - alpha
  stats::Interval pct;
  double pct_estimate = 0;     // median-unbiased
  stats::Interval difference;  // of the transformed means, variant - base
  double difference_estimate = 0;
};

// One variant against the baseline over the looks of one sweep point.
class SequentialTest {
 public:
  // `past`: the looks already taken (a resumed run), as looks() gave them;
  // their bounds are recomputed from them.
  struct PastLook {
    double n = 0, fraction = 0, needed_n = 0;
  };
  SequentialTest(SequentialPlan plan, Centre centre, bool higher_is_better,
                 std::span<const PastLook> past = {});

  // The samples so far (both sides, all iterations); `last`: no more will
  // come (the iteration cap), so this is the final look whatever the
  // information. Throws std::logic_error after the last look, and
  // std::invalid_argument for samples side_moments refuses.
  SequentialLook look(std::span<const double> base, std::span<const double> variant,
                      bool last = false);
  // Of the latest analysed look; throws std::logic_error before the first.
  AdjustedInterval adjusted_interval() const;

  // A look at n a side whose variance asks for `estimate` iterations a
  // side, taken as look() takes it but without samples: the re-planning
  // rule, the spending fraction, the bounds and the next look (for
  // planning, analysis/sequential/sequential_planning.h). The caller keeps to the
  // schedule (n >= next_n); throws std::logic_error after the last look.
  struct Scheduled {
    PastLook at;
    double efficacy_bound = 0, same_bound = 0, alpha_spent = 0;
    std::size_t next_n = 0;
    bool last = false;
  };
  Scheduled schedule(double n, double estimate, bool last = false);

  bool finished() const { return finished_; }
  // Whether a first look at n a side plans as design.settled_df says.
  bool settled_at(double n) const;
  // The needed n's terms (look()) and the level of a test whose first look
  // is at first_n a side: settled, or the plan's unsettled level there.
  struct NeededTerms {
    double eta = 0;                // plan.settled_eta or the level's eta
    double variance_quantile = 0;  // 0 or design.variance_quantile
    double small_n = 0;            // Guenther's term, once or design.small_n_term times
    double nominal_alpha = 0;      // what the bounds spend: alpha, or the level's
  };
  // first_needed_n: the first look's needed n at the long level (plan.unsettled's), which
  // picks the short level below its ratio (+inf: the long level).
  NeededTerms needed_terms(double first_n,
                           double first_needed_n = std::numeric_limits<double>::infinity()) const;
  // The terms of a first look at first_n whose variance asks for per_eta2
  // iterations a side per unit of eta^2 (the needed n is eta^2 per_eta2 +
  // small_n): the short level when the long one's needed n is below its
  // ratio (sequential_calibration.h), else needed_terms(first_n).
  NeededTerms first_terms(double first_n, double per_eta2) const;
  const std::vector<PastLook>& looks() const { return looks_; }
  const SequentialPlan& plan() const { return plan_; }

 private:
  double pct_of(double difference) const;
  // A look at n with this estimate of the needed n: re-planned by
  // design.replan, with its spending fraction.
  PastLook replanned(double n, double estimate) const;
  // Bounds of a look, both path densities moved past it, the next look
  // planned; returns the alpha spent through it.
  double take_look(const PastLook& at, bool last, double& bound, double& same_bound);

  SequentialPlan plan_;
  Centre centre_;
  bool higher_is_better_;
  gs::PathDensity efficacy_paths_;     // drift 0, efficacy bounds
  gs::PathDensity same_paths_;         // drift 0, the repeated interval's bounds
  double spent_ = 0, same_spent_ = 0;  // by the spending functions, through the last look
  double exited_ = 0;                  // the paths that crossed the efficacy bounds so far
  std::vector<PastLook> looks_;
  std::vector<double> bounds_;
  double next_n_ = 0;          // the next look is due at this n a side (0: min_n)
  bool next_is_last_ = false;  // and is the last
  bool finished_ = false;
  bool settled_ = false;  // the first look was settled_at its n
  NeededTerms level_;     // of the first look's n (needed_terms)
  // The latest analysed look, for adjusted_interval().
  double base_mean_ = 0, z_ = 0, se_ = 0, df_ = 0;
};

// Iterations a side of a look: the harmonic mean of the two sides' counts,
// exactly n when both are n.
double look_n(std::size_t n_base, std::size_t n_variant);

// Welch's t with df degrees of freedom on the normal scale,
// Phi^-1(F_t(t; df)) (rpact's qnorm(1 - pt(t, df)) for means).
double welch_z(double t, double df);

// The smallest n a side with which a fixed two-sample t-test at `alpha`
// (two-sided) has `power` for a difference of min_effect_pct with the given
// CV (both in % of the mean): the fixed design a sequential one is measured
// against (R's power.t.test; the noncentral t).
// Throws std::invalid_argument past 2^53 a side (no input design_error
// takes comes near it: at most about 1.9e12).
std::size_t fixed_n_for_power(double alpha, double power, double min_effect_pct, double cv_pct);

// A two-sample t-test's power with n a side at a difference of `effect`
// standard deviations (power.t.test, strict = FALSE: the far tail left out,
// as R does by default).
double t_test_power(double alpha, double effect, double n);

}  // namespace schedlab
