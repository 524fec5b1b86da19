// Change points of one series: the runs of a history (one variant, one
// parameter set, oldest first) where the metric's level shifted, found
// with a stated false-alarm rate and robust to one outlier run.
//
// After the Hunter/Otava idea (MongoDB's E-Divisive means, DataStax
// Hunter, Apache Otava: a best split found in a segment, kept only when a
// two-sample test calls it significant and the change is large enough,
// then both sides searched again), with two choices of our own:
//
// - The unit is the run: each run contributes its centre, not its
//   samples. Samples of one run share that run's conditions (the boot, the
//   machine's state that night), so pooling them across runs would call
//   every night-to-night wobble a change.
// - The statistic is rank-based: for every split of a segment with at
//   least `min_segment` runs on each side, the standardised Wilcoxon rank
//   sum of the left side, (W - t (L + 1) / 2) / sqrt(t (L - t) (L + 1) /
//   12); the split is the one with the largest |Z| (Pettitt's scan,
//   standardised so that splits near the ends are not disfavoured). Its
//   p-value is that maximum's own: the share of `permutations` random
//   orders of the segment's runs whose maximum is at least as large, so the
//   choice of the best split is paid for (a t-test at the best split would
//   call a change in a flat series far more often than alpha). One outlier
//   run moves a rank sum by at most half the segment's length and cannot
//   form a segment of its own, and the minimum change is measured on the
//   medians of the centres either side, which one outlier does not move.
//
// False alarms: each segment is tested at `alpha`, so a flat series
// reports a change with probability at most alpha (up to the permutation
// p-value's resolution); after a real change each side is searched again,
// at alpha each. A candidate is reported when p < alpha and |% change| >=
// min_change_pct; a significant split below the minimum change still
// splits the segment (the search goes on either side) but is not reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace schedlab {

struct SeriesRun {
  std::optional<double> centre;  // empty: the run has no value (failed); skipped
  std::size_t n = 0;             // its samples; not used by the search (see above)
};

struct ChangePointOptions {
  double alpha = 0.05;
  double min_change_pct = 3;       // |median after / median before - 1| * 100
  std::size_t min_segment = 4;     // runs with a centre each side of a change (>= 3)
  std::size_t window = 30;         // at most this many runs each side make a change's centres
  std::size_t permutations = 999;  // p-value resolution 1 / (permutations + 1)
  std::uint64_t seed = 1;          // the permutations' order; results are deterministic
};

struct ChangePoint {
  std::size_t index = 0;  // the first run after the change (index into the series)
  double before =
      0;  // median of the centres of the runs before (to the previous change, at most window)
  double after = 0;  // and after (to the next change, at most window)
  std::size_t runs_before = 0, runs_after = 0;
  double pct = 0;      // (after / before - 1) * 100, the plain change
  double p_value = 1;  // of the scan that found it
};

// The changes, in series order. Throws std::invalid_argument with a
// one-line message when the series has fewer than 2 * min_segment runs
// with a centre, or the options are out of range.
std::vector<ChangePoint> change_points(std::span<const SeriesRun> series,
                                       const ChangePointOptions& options);

}  // namespace schedlab
