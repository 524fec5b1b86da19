// bench_change_points: detection rate and false alarms per 100 runs of
// change points (analysis/history/change_points.h) on planted nightly series,
// beside today's pairwise nightly rule (analysis/nightly/regression.h: each night
// against the night before, Welch's t at alpha 0.05 and at least 3% worse)
// on the same series.
//
// A series is 100 runs, oldest first, of a lower-is-better metric at level
// 100; each run has 5 samples. Noise: each run's level moves by CV/2 of
// normal noise (the night's conditions), each sample by CV. Planted: a
// regression of 2, 5 or 10% from a run drawn uniformly in [20, 80], or
// none; and either no outlier or one outlier run (all its samples +15%) at
// another run drawn uniformly. A shift counts as found when a change (or a
// flagged regression) lies within 2 runs of it; anything else reported is
// a false alarm. Change points run on the runs' means with their defaults
// (alpha 0.05, minimum change 3%, 4 runs a side, 999 permutations).
//
//   build/bench/bench_change_points [SERIES]   (default 100 a setting)
#include <fmt/format.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/history/change_points.h"
#include "analysis/nightly/regression.h"
#include "analysis/sequential/sequential_simulation.h"
#include "analysis/stats/stats.h"

using namespace schedlab;

namespace {

constexpr std::size_t kRuns = 100, kSamples = 5, kTolerance = 2;

struct Tally {
  std::size_t series = 0, shifts = 0, found = 0, false_alarms = 0;
};

bool near(std::size_t a, std::size_t b) {
  return (a > b ? a - b : b - a) <= kTolerance;
}

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t per_setting = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  const MetricInfo metric{"w",     "time",           "s", Direction::kLowerIsBetter,
                          "amean", SampleKind::kRun, 4};
  const RegressionRule rule;
  fmt::print("{} series of {} runs ({} samples each) a setting; found = within {} runs\n\n",
             per_setting, kRuns, kSamples, kTolerance);
  fmt::print("{:>4} {:>6} {:>8} | {:>21} | {:>21}\n", "", "", "", "change points",
             "pairwise nightly rule");
  fmt::print("{:>4} {:>6} {:>8} | {:>10} {:>10} | {:>10} {:>10}\n", "CV%", "shift", "outlier",
             "found", "false/100", "found", "false/100");
  SeededNormal rng(20240536);
  std::uint64_t cp_seed = 1;
  for (double cv : {1.0, 2.0, 5.0})
    for (double shift : {0.0, 2.0, 5.0, 10.0})
      for (bool outlier : {false, true}) {
        Tally cp, pair;
        for (std::size_t k = 0; k < per_setting; ++k) {
          const std::size_t at = 20 + static_cast<std::size_t>(rng.bits() % 61);
          std::size_t spike = kRuns;
          if (outlier) do
              spike = static_cast<std::size_t>(rng.bits() % kRuns);
            while (shift > 0 && near(spike, at));
          std::vector<std::vector<double>> runs(kRuns);
          std::vector<SeriesRun> series;
          for (std::size_t i = 0; i < kRuns; ++i) {
            double level = 100 * (1 + cv / 200 * rng());
            if (shift > 0 && i >= at) level *= 1 + shift / 100;
            if (i == spike) level *= 1.15;
            for (std::size_t j = 0; j < kSamples; ++j)
              runs[i].push_back(level * (1 + cv / 100 * rng()));
            series.push_back({stats::amean(runs[i]), kSamples});
          }
          ChangePointOptions o;
          o.seed = cp_seed++;
          for (Tally* t : {&cp, &pair}) {
            ++t->series;
            t->shifts += shift > 0;
          }
          bool found = false;
          for (const auto& c : change_points(series, o)) {
            if (shift > 0 && near(c.index, at))
              found = true;
            else
              ++cp.false_alarms;
          }
          cp.found += found;
          found = false;
          for (std::size_t i = 1; i < kRuns; ++i) {
            const Comparison c =
                compare_samples({{"before", runs[i - 1]}, {"after", runs[i]}}, metric);
            if (find_regressions(c, rule).empty()) continue;
            if (shift > 0 && near(i, at))
              found = true;
            else
              ++pair.false_alarms;
          }
          pair.found += found;
        }
        auto found = [](const Tally& t) {
          return t.shifts ? fmt::format("{:.2f}", static_cast<double>(t.found) / t.shifts)
                          : std::string("-");
        };
        auto alarms = [](const Tally& t) {
          return static_cast<double>(t.false_alarms) * 100 / static_cast<double>(t.series * kRuns);
        };
        fmt::print("{:>4} {:>5}% {:>8} | {:>10} {:>10.2f} | {:>10} {:>10.2f}\n", cv, shift,
                   outlier ? "one" : "none", found(cp), alarms(cp), found(pair), alarms(pair));
      }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("\nCPU {:.1f} s user + {:.1f} s sys\n", seconds(ru.ru_utime), seconds(ru.ru_stime));
  return 0;
}
