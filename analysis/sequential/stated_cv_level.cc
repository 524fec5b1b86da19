#include "analysis/sequential/stated_cv_level.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "analysis/sequential/seeded_normal.h"
#include "analysis/stats/stats.h"

namespace schedlab {
namespace {

// Where paths may cross: each (path, look) whose Welch z could reach the
// lowest bound tried, with that z. Paths in order.
struct Crossing {
  std::uint32_t path = 0;
  std::uint32_t look = 0;
  double z = 0;
};

// The t at pooled df 2n - 2 whose z is `bound`: a Welch t below it has a
// z below the bound (Welch's df is at most 2n - 2, and fewer degrees of
// freedom map the same t to a smaller z).
double gate_t(double bound, double n) {
  if (!std::isfinite(bound)) return std::numeric_limits<double>::infinity();
  const double tail = boost::math::cdf(boost::math::complement(boost::math::normal(), bound));
  if (tail <= 0) return std::numeric_limits<double>::infinity();
  return boost::math::quantile(boost::math::complement(boost::math::students_t(2 * n - 2), tail));
}

std::vector<Crossing> simulate(const std::vector<double>& looks, const std::vector<double>& lowest,
                               std::size_t paths, std::uint64_t seed, ZOfT z_of) {
  std::vector<double> gates;
  for (std::size_t k = 0; k < looks.size(); ++k) gates.push_back(gate_t(lowest[k], looks[k]));
  SeededNormal rng(seed);
  std::vector<Crossing> out;
  for (std::size_t p = 0; p < paths; ++p) {
    double mean_a = 0, m2_a = 0, mean_b = 0, m2_b = 0;  // Welford's
    double drawn = 0;
    for (std::size_t k = 0; k < looks.size(); ++k) {
      while (drawn < looks[k]) {
        drawn += 1;
        const double a = rng(), b = rng();
        const double da = a - mean_a, db = b - mean_b;
        mean_a += da / drawn;
        mean_b += db / drawn;
        m2_a += da * (a - mean_a);
        m2_b += db * (b - mean_b);
      }
      const double n = drawn, va = m2_a / (n - 1), vb = m2_b / (n - 1);
      const double se2 = (va + vb) / n;
      if (!(se2 > 0)) continue;
      const double t = std::fabs(mean_b - mean_a) / std::sqrt(se2);
      if (t < gates[k]) continue;
      const double z = z_of(t, stats::welch_df(va / n, n, vb / n, n));
      out.push_back({static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(k), z});
    }
  }
  return out;
}

double share_crossing(const std::vector<Crossing>& c, const std::vector<double>& bounds,
                      std::size_t paths) {
  std::size_t crossed = 0;
  for (std::size_t i = 0; i < c.size();) {
    const std::uint32_t path = c[i].path;
    bool any = false;
    for (; i < c.size() && c[i].path == path; ++i) any = any || c[i].z >= bounds[c[i].look];
    crossed += any ? 1 : 0;
  }
  return static_cast<double>(crossed) / static_cast<double>(paths);
}

}  // namespace

double efficacy_type1(const std::vector<double>& looks, const std::vector<double>& bounds,
                      std::size_t paths, std::uint64_t seed, ZOfT z_of) {
  return share_crossing(simulate(looks, bounds, paths, seed, z_of), bounds, paths);
}

StatedRatio stated_ratio(const std::vector<double>& looks,
                         const std::function<std::vector<double>(double)>& bounds_at, double alpha,
                         ZOfT z_of) {
  const std::vector<double> widest = bounds_at(1);
  const std::vector<Crossing> crossings = simulate(looks, widest, kStatedPaths, kStatedSeed, z_of);
  StatedRatio r{1, share_crossing(crossings, widest, kStatedPaths)};
  if (r.type1 <= alpha) return r;
  // Bisection to 0.002 (the share grows with the ratio: the bounds fall),
  // first between 0.8 and 1, where the ratios are (each step computes the
  // bounds of every look: most of the cost).
  double lo = 0.2, hi = 1;
  const auto step = [&](double mid) {
    const double at = share_crossing(crossings, bounds_at(mid), kStatedPaths);
    if (at <= alpha) {
      lo = mid;
      r.type1 = at;
    } else {
      hi = mid;
    }
  };
  step(0.8);
  while (hi - lo > 0.002) step((lo + hi) / 2);
  if (lo == 0.2) r.type1 = share_crossing(crossings, bounds_at(lo), kStatedPaths);
  r.ratio = lo;
  return r;
}

}  // namespace schedlab
