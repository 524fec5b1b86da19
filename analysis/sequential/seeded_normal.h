// Normal draws from a seed, the same on every platform: mt19937_64, whose
// sequence the C++ standard fixes, through Box-Muller written here
// (std::normal_distribution's algorithm is the library's choice). For the
// seeded simulations of the sequential test (sequential_simulation.h) and
// of its stated-CV level (stated_cv_level.h).
#pragma once

#include <cstdint>
#include <random>

namespace schedlab {

class SeededNormal {
 public:
  explicit SeededNormal(std::uint64_t seed) : rng_(seed) {}
  double operator()();  // N(0, 1)
  std::uint64_t bits() { return rng_(); }

 private:
  std::mt19937_64 rng_;
};

}  // namespace schedlab
