// The floor of "what changed" (issue 46): at few iterations Mann-Whitney's
// p cannot go below a bound (2 / C(12, 6) = 0.0022 at 6 against 6 without
// ties; 0.0013 when each side is constant, which is the lowest of all), and
// Benjamini-Hochberg over many counters asks for less than that of its
// first row (fdr / tested: 0.05 / 124 = 0.0004). Then BH lists rows only
// several at a time or none, and a table can be empty for that reason
// alone; the section says so. Welch's t-test has no such floor: its p goes
// to 0 as the sides separate.
//
// Whose floor. The monitor counters have one value per iteration; the
// benchmark's metrics may have several (a run sample each), so their floor
// can be far lower. The floor that keeps counters off the table is the
// counters': it is taken over their sizes alone, and the benchmark's rows
// are said apart (they may be listed alone while no counter can). Only
// when no counter was tested is the floor the benchmark's.
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
  std::size_t tested = 0;         // the false-discovery family (counters and benchmark)
  // Whose floor: the monitor counters' (false: no counter was tested, the
  // benchmark's metrics').
  bool of_counters = true;
  // Some benchmark metric's own floor is at or under the threshold: it can
  // be listed alone, and its rows count among the rows BH lists at once.
  bool benchmark_alone = false;
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

using SideSizes = std::span<const std::pair<std::size_t, std::size_t>>;

// The floor when it is over the first threshold fdr / (counters +
// benchmark tested): `counters` has each tested monitor counter's
// iterations a side, `benchmark` each tested benchmark metric's units a
// side. The lowest over the counters' sizes (the benchmark's when no
// counter was tested), so it holds for every one of them. Empty when some
// counter could be listed alone, or the test has no floor.
std::optional<PFloor> binding_floor(Test t, SideSizes counters, SideSizes benchmark, double fdr);

// One sentence, no newline: "Mann-Whitney's p cannot go below ... lift this floor."
std::string floor_sentence(const PFloor& f);

}  // namespace schedlab
