#include "analysis/compare/changed_floor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace schedlab {
namespace {

std::optional<double> p_of(const std::vector<double>& a, const std::vector<double>& b) {
  return p_value(Test::kMwu, a, b).p;
}

// The smallest p without ties: the sides fully separated (1..na against
// na+1..na+nb), as the test computes it (exact under 50 a side).
double untied(std::size_t na, std::size_t nb) {
  std::vector<double> a(na), b(nb);
  std::iota(a.begin(), a.end(), 1.0);
  std::iota(b.begin(), b.end(), static_cast<double>(na) + 1);
  return p_of(a, b).value_or(1);
}

}  // namespace

std::optional<std::pair<double, double>> smallest_p(Test t, std::size_t na, std::size_t nb) {
  if (t != Test::kMwu || na == 0 || nb == 0) return std::nullopt;
  const double free = untied(na, nb);
  // With ties the normal approximation applies; its p is lowest when each
  // side is one tie group (checked by R over every pair of samples on a
  // grid of three values, 3 to 7 a side: tests/analysis/compare/
  // changed_reference.R).
  const double tied = p_of(std::vector<double>(na, 0), std::vector<double>(nb, 1)).value_or(1);
  return std::pair{std::min(free, tied), free};
}

namespace {

// The lowest floor over `sizes`, as f.p, f.p_untied, f.n_base, f.n; false
// when the test has none there.
bool lowest_floor(Test t, SideSizes sizes, PFloor& f) {
  std::vector<std::pair<std::size_t, std::size_t>> distinct(sizes.begin(), sizes.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  bool any = false;
  for (const auto& [na, nb] : distinct) {
    const auto p = smallest_p(t, na, nb);
    if (!p || (any && p->first >= f.p)) continue;
    any = true;
    f.p = p->first;
    f.p_untied = p->second;
    f.n_base = na;
    f.n = nb;
  }
  return any;
}

}  // namespace

std::optional<PFloor> binding_floor(Test t, SideSizes counters, SideSizes benchmark, double fdr) {
  const std::size_t tested = counters.size() + benchmark.size();
  if (t != Test::kMwu || tested == 0) return std::nullopt;
  PFloor f{.tested = tested, .fdr = fdr, .threshold = fdr / static_cast<double>(tested)};
  f.of_counters = !counters.empty();
  if (!lowest_floor(t, f.of_counters ? counters : benchmark, f) || f.p <= f.threshold)
    return std::nullopt;
  if (f.of_counters) {
    PFloor b;
    f.benchmark_alone = lowest_floor(t, benchmark, b) && b.p <= f.threshold;
  }
  f.rows_needed = static_cast<std::size_t>(std::ceil(f.p / f.threshold));
  while (static_cast<double>(f.rows_needed) * f.threshold < f.p) ++f.rows_needed;
  for (std::size_t k = std::max<std::size_t>({f.n_base, f.n, 2}); k <= kMaxIterationsSearched; ++k)
    if (untied(k, k) <= f.threshold) {
      f.iterations_needed = k;
      break;
    }
  return f;
}

std::string floor_sentence(const PFloor& f) {
  std::string s = fmt::format(
      "Mann-Whitney's p{} cannot go below {:.2g} at {} against {} iterations ({:.2g} without "
      "ties), above Benjamini-Hochberg's first threshold {:g}/{} = {:.2g}: ",
      f.benchmark_alone ? " of a monitor counter" : "", f.p, f.n_base, f.n, f.p_untied, f.fdr,
      f.tested, f.threshold);
  // The benchmark's metrics can be listed alone: said apart, and they
  // count among the rows BH lists at once.
  const char* alone = f.benchmark_alone
                          ? " (the benchmark's metrics, whose p can go lower, can be listed alone)"
                          : "";
  if (f.rows_needed > f.tested)
    s += fmt::format("no counter can be listed{}", alone);
  else if (f.benchmark_alone)
    s += fmt::format("counters come only {} or more rows at once, or none{}", f.rows_needed, alone);
  else
    s += fmt::format("rows come {} or more at once, or none", f.rows_needed);
  s +=
      f.iterations_needed
          ? fmt::format("; Welch's t-test (welch), or {} iterations a side, would lift this floor.",
                        f.iterations_needed)
          : std::string("; Welch's t-test (welch) would lift this floor.");
  return s;
}

}  // namespace schedlab
