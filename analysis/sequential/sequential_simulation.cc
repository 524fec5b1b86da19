#include "analysis/sequential/sequential_simulation.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace schedlab {

double draw(SeededNormal& rng, Noise noise, double mean, double cv) {
  if (noise == Noise::kNormal) return mean * (1 + cv * rng());
  const double s2 = std::log1p(cv * cv);  // a log-normal's CV is sqrt(exp(s^2) - 1)
  return mean * std::exp(std::sqrt(s2) * rng() - s2 / 2);
}

SimulationResult simulate_sequential(const SequentialPlan& plan, Centre centre,
                                     const SimulationSetting& s) {
  SeededNormal rng(s.seed);
  SimulationResult r;
  r.trials = s.trials;
  std::vector<std::size_t> stops;
  stops.reserve(s.trials);
  const double cv = s.cv_pct / 100;
  const double base_mean = 100, variant_mean = 100 * (1 + s.change_pct / 100);
  std::vector<double> a, b;
  double looks = 0;
  for (std::size_t trial = 0; trial < s.trials; ++trial) {
    SequentialTest test(plan, centre, true);
    a.clear();
    b.clear();
    SequentialLook l;
    for (std::size_t n = 1; n <= s.max_n; ++n) {
      a.push_back(draw(rng, s.noise, base_mean, cv));
      b.push_back(draw(rng, s.noise, variant_mean, cv));
      if (n < plan.design.min_n && n < s.max_n) continue;
      l = test.look(a, b, n == s.max_n);
      if (test.finished()) break;
    }
    looks += static_cast<double>(test.looks().size());
    stops.push_back(a.size());
    switch (l.decision) {
      case SequentialDecision::kDifferent:
        ++r.different;
        if ((l.pct > 0) != (s.change_pct > 0) && s.change_pct != 0) ++r.different_wrong_way;
        break;
      case SequentialDecision::kSame:
        ++r.same;
        break;
      case SequentialDecision::kUndecided:
        ++r.undecided;
        break;
    }
    if (s.after_trial) s.after_trial();
  }
  double sum = 0;
  for (std::size_t n : stops) sum += static_cast<double>(n);
  r.mean_n = sum / static_cast<double>(stops.size());
  r.mean_looks = looks / static_cast<double>(stops.size());
  std::sort(stops.begin(), stops.end());
  // The nearest-rank 95th percentile.
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(stops.size())));
  r.p95_n = stops[std::max<std::size_t>(rank, 1) - 1];
  r.max_n_seen = stops.back();
  return r;
}

}  // namespace schedlab
