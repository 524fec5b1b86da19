// Monte Carlo of the sequential A/B test (analysis/sequential/sequential.h): seeded
// trials of a baseline and a variant drawn round by round until the test
// stops, for the error rates and iteration counts a design really has
// (bench/sequential_bench.cc prints them; tests/analysis/sequential/sequential_test.cc
// checks a small seeded run). The draws come from mt19937_64, whose
// sequence the C++ standard fixes, through Box-Muller written here
// (std::normal_distribution's algorithm is the library's choice), so a
// seed gives the same trials everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>

#include "analysis/sequential/seeded_normal.h"
#include "analysis/sequential/sequential.h"
#include "base/centre.h"

namespace schedlab {

enum class Noise { kNormal, kLogNormal };

// One draw with mean `mean` and coefficient of variation `cv` (a fraction):
// normal, or log-normal with that mean and CV.
double draw(SeededNormal& rng, Noise noise, double mean, double cv);

struct SimulationSetting {
  double cv_pct = 5;      // of each side's mean
  double change_pct = 0;  // the variant's true mean against the baseline's (0: A/A)
  Noise noise = Noise::kNormal;
  std::size_t trials = 10'000;
  std::size_t max_n = 1000;  // the iteration cap a side (its look is `last`)
  std::uint64_t seed = 1;
  // Called after each trial (a progress line); empty: nothing.
  std::function<void()> after_trial;
};

struct SimulationResult {
  std::size_t trials = 0;
  std::size_t different = 0, same = 0, undecided = 0;
  std::size_t different_wrong_way = 0;  // called different with the sign opposite the change
  double mean_n = 0;                    // iterations a side at the stop
  std::size_t p95_n = 0;                // 95th percentile of the same
  std::size_t max_n_seen = 0;
  double mean_looks = 0;
};

// Trials of the test with the metric centre `centre` (the baseline's mean
// is 100). Throws what SequentialTest throws.
SimulationResult simulate_sequential(const SequentialPlan& plan, Centre centre,
                                     const SimulationSetting& s);

}  // namespace schedlab
