// The level of a sequential A/B test whose looks are planned from a CV
// stated before any data (SequentialDesign::plan_cv_pct, the config's
// `plan_cv_pct`, `schedlab design --plan-cv`).
//
// Such a test's looks are fixed before its first sample: N = eta^2 2 (cv /
// min_effect)^2 + the small-sample term iterations a side, looks where
// SequentialTest::schedule puts them for that N. Its statistic is Welch's t
// mapped to z through its degrees of freedom: each z is N(0, 1) under no
// change, but the z's of looks that share a variance estimate of a few
// degrees of freedom are not jointly the Brownian motion the bounds assume,
// so at all of alpha the test rejects a little more often than alpha
// (0.0515 at 4,000 trials with looks at 3-10 a side). With normal noise the
// t's are scale-free: the type I of the efficacy bounds depends on the
// looks alone, not on the true CV (the `same` stop only removes
// rejections). So the level is calibrated for the looks themselves: the
// largest alpha x ratio (ratio <= 1) at which the efficacy bounds, computed
// as SequentialTest computes them, reject at most alpha of kStatedPaths
// seeded paths of normal samples under no change. The drift the looks are
// planned with depends on the level, so it is done twice: the looks at
// all of alpha give a first ratio, the looks of that ratio's drift the
// final one (calibrated at the looks the test takes).
//
// This file is the simulation and the search for the ratio; plan_sequential
// (sequential.cc) gives it the looks and the bounds at each ratio,
// computed by SequentialTest::schedule, and keeps the result in
// SequentialPlan::stated.
//
// A first look settled by design.settled_df (a stated CV that plans 7 or
// more iterations a side at the first look: CV 10% at min_effect 3%) spends
// all of alpha, as an estimated schedule does (type I 0.0486-0.0516 there).
// Power: planned at power + a margin for the t's heavier tails, 0.045 when
// the needed n has fewer than 30 pooled degrees of freedom (CV 2% at
// min_effect 3%: power 0.80-0.81 measured with it, 0.77-0.79 with 0.02),
// else 0.015, settled_margin when settled. Power moves in steps of the
// last look's n: at CV 4% 0.015 plans a needed n of 31.6, the last look at
// 32 (power 0.796-0.800, 23.78-23.94 iterations at min_effect, 20,000
// trials); 0.02 planned 32.07, so 33 (0.804-0.811 and 24.08-24.21, over
// 1.05 x rpact's 24.08-24.13).
// A cap (`max`) before the planned last look makes the last look earlier
// and spend what is left; the level is the one of the uncapped looks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace schedlab {

inline constexpr std::size_t kStatedPaths = 40'000;
inline constexpr std::uint64_t kStatedSeed = 43;
// The power margins: below this many pooled degrees of freedom of the
// needed n the short one.
inline constexpr double kStatedShortNeededDf = 30;
inline constexpr double kStatedShortMargin = 0.045;
inline constexpr double kStatedLongMargin = 0.015;

// Welch's t with df degrees of freedom on the z scale (sequential.h's welch_z).
using ZOfT = double (*)(double t, double df);

// The share of `paths` seeded paths of N(0, 1) samples on both sides whose
// Welch z crosses the efficacy bounds at some look (looks: n a side,
// increasing; bounds: |z| at each): the efficacy-only type I.
double efficacy_type1(const std::vector<double>& looks, const std::vector<double>& bounds,
                      std::size_t paths, std::uint64_t seed, ZOfT z_of);

// The largest ratio in [0.2, 1] whose bounds (bounds_at(ratio), at these
// looks) cross at most alpha of kStatedPaths paths (seed kStatedSeed), and
// that share.
struct StatedRatio {
  double ratio = 1;
  double type1 = 0;
};
StatedRatio stated_ratio(const std::vector<double>& looks,
                         const std::function<std::vector<double>(double)>& bounds_at, double alpha,
                         ZOfT z_of);

}  // namespace schedlab
