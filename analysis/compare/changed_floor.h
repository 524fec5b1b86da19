// The floor of "what changed" (issue 46): at few iterations Mann-Whitney's
// p cannot go below a bound (2 / C(12, 6) = 0.0022 at 6 against 6 without
// ties; 0.0013 when each side is constant, which is the lowest of all), and
// Benjamini-Hochberg over many counters asks for less than that of its
// first row (fdr / tested: 0.05 / 124 = 0.0004). Then BH lists rows only
// several at a time or none, and a table can be empty for that reason
// alone; the section says so. Welch's t-test has no such floor: its p goes
// to 0 as the sides separate.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "analysis/stats/significance.h"

namespace schedlab {

struct PFloor {
  double p = 1;                   // the smallest p at n_base against n (two constant sides)
  double p_untied = 1;            // the smallest without ties (fully separated sides)
  std::size_t n_base = 0, n = 0;  // the iterations a side where the floor is lowest
  std::size_t tested = 0;         // the false-discovery family
  double fdr = 0.05;
  double threshold = 0;  // BH's first threshold: fdr / tested
  // BH lists this many rows at once or none: the least k with p <= k *
  // threshold (more than tested: no row at all).
  std::size_t rows_needed = 0;
  // Iterations a side (equal sides) that bring p_untied under threshold; 0
  // when none up to kMaxIterationsSearched does.
  std::size_t iterations_needed = 0;
};

inline constexpr std::size_t kMaxIterationsSearched = 200;

// The test's smallest attainable p at na against nb iterations: {with
// ties, without}. Empty for a test without a floor (Welch) or no iteration.
std::optional<std::pair<double, double>> smallest_p(Test t, std::size_t na, std::size_t nb);

// The floor when it is over the first threshold for `sizes` (each tested
// counter's iterations a side, the benchmark's metrics' units included) at
// `fdr`: the lowest over those sizes, so it holds for every row. Empty
// when some counter could be listed alone, or the test has no floor.
std::optional<PFloor> binding_floor(Test t,
                                    std::span<const std::pair<std::size_t, std::size_t>> sizes,
                                    double fdr);

// One sentence, no newline: "Mann-Whitney's p cannot go below ... lift this floor."
std::string floor_sentence(const PFloor& f);

}  // namespace schedlab
