#include "analysis/history/change_points.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "analysis/stats/stats.h"

namespace schedlab {
namespace {

// Average ranks (1-based) of x.
std::vector<double> ranks(std::span<const double> x) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    const double rank = (static_cast<double>(i + j) + 2) / 2;
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = rank;
    i = j + 1;
  }
  return r;
}

struct Split {
  double z = 0;        // the largest |standardised rank sum|
  std::size_t at = 0;  // runs on the left of it
};

// The best split of ranks r with at least `edge` on each side.
Split scan(std::span<const double> r, std::size_t edge) {
  const double len = static_cast<double>(r.size());
  Split best;
  double w = 0;
  for (std::size_t t = 1; t + edge <= r.size(); ++t) {
    w += r[t - 1];
    if (t < edge) continue;
    const double td = static_cast<double>(t);
    const double z =
        std::fabs(w - td * (len + 1) / 2) / std::sqrt(td * (len - td) * (len + 1) / 12);
    if (z > best.z) best = {z, t};
  }
  return best;
}

struct Found {
  std::size_t at = 0;  // index into the values with a centre
  double p = 1;
};

class Search {
 public:
  Search(std::span<const double> values, const ChangePointOptions& o)
      : values_(values), o_(o), rng_(o.seed) {}

  // Binary segmentation of [lo, hi): every significant split, in any order.
  void run(std::size_t lo, std::size_t hi, std::vector<Found>& found) {
    if (hi - lo < 2 * o_.min_segment) return;
    std::vector<double> r = ranks(values_.subspan(lo, hi - lo));
    const Split best = scan(r, o_.min_segment);
    // Permutation p-value of the maximum, (1 + as large) / (1 + permutations);
    // counting stops once p >= alpha is certain.
    // The largest count with (1 + count) / (1 + permutations) < alpha (check()
    // made sure there is one).
    const double total = static_cast<double>(o_.permutations + 1);
    const auto limit = static_cast<std::size_t>(std::ceil(o_.alpha * total - 1)) - 1;
    std::size_t as_large = 0;
    for (std::size_t i = 0; i < o_.permutations && as_large <= limit; ++i) {
      for (std::size_t k = r.size() - 1; k > 0; --k) std::swap(r[k], r[rng_() % (k + 1)]);
      if (scan(r, o_.min_segment).z >= best.z - 1e-12) ++as_large;
    }
    if (as_large > limit) return;
    const double p = static_cast<double>(1 + as_large) / static_cast<double>(o_.permutations + 1);
    found.push_back({lo + best.at, p});
    run(lo, lo + best.at, found);
    run(lo + best.at, hi, found);
  }

 private:
  std::span<const double> values_;
  const ChangePointOptions& o_;
  std::mt19937_64 rng_;
};

void check(const ChangePointOptions& o) {
  if (!(o.alpha > 0 && o.alpha < 1))
    throw std::invalid_argument(fmt::format("alpha must be in (0, 1), not {}", o.alpha));
  if (!(o.min_change_pct >= 0))
    throw std::invalid_argument(
        fmt::format("the minimum change must be 0% or more, not {}", o.min_change_pct));
  if (o.min_segment < 3)
    throw std::invalid_argument(
        fmt::format("min_segment must be at least 3 runs, not {}", o.min_segment));
  if (o.window < o.min_segment)
    throw std::invalid_argument(
        fmt::format("window ({}) must be at least min_segment ({})", o.window, o.min_segment));
  if (o.permutations > 1'000'000 || o.alpha * static_cast<double>(o.permutations + 1) <= 1)
    throw std::invalid_argument(fmt::format(
        "{} permutations cannot give a p-value below alpha {} (more than 1 / alpha - 1 are "
        "needed, at most 1000000)",
        o.permutations, o.alpha));
}

double median_of(std::span<const double> x) {
  return stats::median(x);
}

}  // namespace

std::vector<ChangePoint> change_points(std::span<const SeriesRun> series,
                                       const ChangePointOptions& options) {
  check(options);
  std::vector<double> values;
  std::vector<std::size_t> index;  // values[i] is series[index[i]]
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (!series[i].centre) continue;
    if (!std::isfinite(*series[i].centre))
      throw std::invalid_argument(fmt::format(
          "the series' run {} of {} has a centre that is not a number", i + 1, series.size()));
    values.push_back(*series[i].centre);
    index.push_back(i);
  }
  const std::size_t need = 2 * options.min_segment;
  if (values.size() < need)
    throw std::invalid_argument(fmt::format(
        "{} runs with a value: change points need at least {} ({} either side of a change)",
        values.size(), need, options.min_segment));
  std::vector<Found> found;
  Search(values, options).run(0, values.size(), found);
  std::sort(found.begin(), found.end(), [](auto& a, auto& b) { return a.at < b.at; });
  std::vector<ChangePoint> out;
  for (std::size_t k = 0; k < found.size(); ++k) {
    const std::size_t at = found[k].at;
    const std::size_t prev = k > 0 ? found[k - 1].at : 0;
    const std::size_t next = k + 1 < found.size() ? found[k + 1].at : values.size();
    const std::size_t lo = std::max(prev, at - std::min(at, options.window));
    const std::size_t hi = std::min(next, at + options.window);
    ChangePoint c;
    c.index = index[at];
    c.runs_before = at - lo;
    c.runs_after = hi - at;
    const std::span<const double> v(values);
    c.before = median_of(v.subspan(lo, at - lo));
    c.after = median_of(v.subspan(at, hi - at));
    c.p_value = found[k].p;
    if (c.before == 0) continue;  // no % change from 0
    c.pct = (c.after - c.before) / std::fabs(c.before) * 100;
    if (std::fabs(c.pct) >= options.min_change_pct) out.push_back(c);
  }
  return out;
}

}  // namespace schedlab
