// What a sequential A/B design (analysis/sequential/sequential.h) costs before a run,
// as R's power.t.test and rpact's getDesignCharacteristics tell it for
// their designs: `schedlab design` prints it, bench_sequential measures
// against it.
//
// Theory. At a stated CV the test's needed n is N = eta^2 2 v / delta^2 +
// small_n_term z_{1-alpha/2}^2 / 4 iterations a side (v = CV^2, delta = min_effect, both
// shares of the mean; sequential.h's formula with the variance known). The
// looks are the ones SequentialTest takes when every look's variance is v
// (SequentialTest::schedule: the first at max(min_n, N / planned_looks),
// each later one at the next planned fraction of N, a round later at least,
// the cap's look the last), with their efficacy and `same` bounds. The
// average sample number (ASN) at a true change of theta x min_effect is
// then the normal-theory E[n at the stop] of those looks
// (gs::path_outcome: Z_k has mean theta delta / se_k; `different` is
// |Z_k| >= c_k, `same` |Z_k| < delta / se_k - e_k). The estimated variance
// makes the real test take a little more (bench_sequential measures it).
//
// Reference. rpact's ASN for the efficacy-only design with the same
// spending and the same looks, as information rates (n_k / max_n of the
// looks above; getDesignCharacteristics' averageSampleNumber1 and 0 over
// its fixed design, times power.t.test's n: rpact's getSampleSizeMeans with
// normalApproximation = FALSE): the bench's goal for the mean iterations at
// min_effect is 1.05 times it. With the default design it is within 0.8% of
// the one at k / planned_looks (the looks before the first at min_n spend
// next to nothing): CV 2% min 5, 6.46 against 6.40.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/sequential/sequential.h"
#include "analysis/sequential/sequential_simulation.h"

namespace schedlab {

// power.t.test(delta = min_effect_pct, sd = cv_pct, sig.level = alpha,
// power)$n: the real-valued n a side of a fixed two-sample t-test
// (fixed_n_for_power is its ceiling).
double fixed_n_exact(double alpha, double power, double min_effect_pct, double cv_pct);

// rpact's getDesignCharacteristics of getDesignGroupSequential(
// informationRates = t, alpha, beta = 1 - power, sided = 2, typeOfDesign =
// the spending): efficacy bounds only, at the fractions t (increasing, the
// last 1; empty: k / planned_looks).
struct EfficacyOnlyCharacteristics {
  double inflation = 0;     // maximum information over the fixed design's
  double asn_ratio_h0 = 0;  // E[information at the stop] over the fixed design's: no change
  double asn_ratio_h1 = 0;  // and at the change the power is for
};
// Throws std::invalid_argument for a design design_error refuses or such t.
EfficacyOnlyCharacteristics efficacy_only_characteristics(const SequentialDesign& d,
                                                          std::vector<double> t = {});

struct PlannedLook {
  std::size_t n = 0;          // iterations a side
  double fraction = 0;        // spending fraction
  double efficacy_bound = 0;  // |z| >= this: different
  double nominal_alpha = 0;   // two-sided level of that bound
  double alpha_spent = 0;     // through this look
  double same_bound = 0;      // e_k of the repeated interval
};

struct AverageSampleNumber {
  double h0 = 0, h1 = 0, h1x2 = 0;  // iterations a side: no change, min_effect, twice it
};

struct DesignCost {
  SequentialPlan plan;
  double cv_pct = 0;
  std::size_t cap = 0;             // the iteration cap (0: none)
  double needed_n = 0;             // N at this CV
  std::vector<PlannedLook> looks;  // at this CV
  double fixed_n_exact = 0;        // power.t.test's n
  std::size_t fixed_n = 0;         // its ceiling
  std::size_t max_n = 0;           // the last look's n
  bool capped = false;             // the cap comes before N
  double power = 0;                // normal theory at these looks: P(different, right way)
  AverageSampleNumber asn;         // normal theory
  // The first look (at min_n) is at or past the needed n: it still spends as
  // the first of planned_looks (SequentialTest caps the first fraction at
  // 1 / planned_looks), the next look spends the rest.
  bool min_past_needed = false;
  EfficacyOnlyCharacteristics reference;
  double reference_asn_h1 = 0;  // reference.asn_ratio_h1 x fixed_n_exact
  // rpact's design has the looks' proportions n_k / max_n at its own maximum
  // n (inflation x power.t.test's n), not their iteration counts: a
  // reference for these looks only when they are planned fractions of the
  // needed n, neither capped nor set by a min_n past it.
  bool reference_applies = false;
};
// Throws std::invalid_argument for a design design_error refuses or a CV
// that is not in (0, 1000).
DesignCost design_cost(const SequentialDesign& d, double cv_pct, std::size_t cap);

// Seeded trials of the test (simulate_sequential, SequentialTest as the
// runner's `stop: sequential` drives it) at no change, min_effect and
// twice it, with seeds seed, seed + 1 and seed + 2. `progress`, when given,
// is called after each trial with the trials done and 3 x trials.
struct DesignSimulation {
  std::size_t trials = 0;
  double type1 = 0;  // P(different | no change)
  double power = 0;  // P(different | min_effect)
  double mean_n_h0 = 0, mean_n_h1 = 0, mean_n_h1x2 = 0;
};
DesignSimulation simulate_design(
    const DesignCost& cost, Noise noise, std::size_t trials, std::uint64_t seed,
    const std::function<void(std::size_t done, std::size_t total)>& progress = {});

}  // namespace schedlab
