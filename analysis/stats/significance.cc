#include "analysis/stats/significance.h"

#include <fmt/format.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <limits>
#include <utility>
#include <vector>

namespace schedlab {
namespace {

struct TestRow {
  Test test;
  std::string_view name;
  std::string_view title;
};
constexpr TestRow kTests[] = {
    {Test::kWelch, "welch", "Welch's t-test"},
    {Test::kMwu, "mwu", "Mann-Whitney U test"},
};

// Mean and squared standard error of one side.
struct Moments {
  double mean = 0;
  double se2 = 0;
  double n = 0;
};
Moments moments(std::span<const double> x) {
  return {stats::amean(x), *stats::variance(x) / static_cast<double>(x.size()),
          static_cast<double>(x.size())};
}

std::vector<double> mapped(std::span<const double> x, double (*f)(double)) {
  std::vector<double> out(x.size());
  std::transform(x.begin(), x.end(), out.begin(), f);
  return out;
}

// Both samples times the same power of two, so that the larger magnitude
// is about 1: a test statistic and a ratio of centres do not change (a
// power of two scales exactly), but squares and products of samples near a
// double's limits no longer overflow on the way (Fieller's discriminant,
// Welch's degrees of freedom).
std::pair<std::vector<double>, std::vector<double>> scaled_together(std::span<const double> a,
                                                                    std::span<const double> b) {
  double top = 0;
  for (auto s : {a, b})
    for (double v : s) top = std::max(top, std::fabs(v));
  const int e = top > 0 && std::isfinite(top) ? std::ilogb(top) : 0;
  const auto scaled = [e](std::span<const double> s) {
    std::vector<double> out(s.size());
    std::transform(s.begin(), s.end(), out.begin(), [e](double v) { return std::ldexp(v, -e); });
    return out;
  };
  return {scaled(a), scaled(b)};
}

// What an exception of Boost.Math (a domain or overflow error on data that
// is finite yet extreme) becomes: a statistic with a reason, never an exit.
template <class Result, class F>
Result or_reason(F&& f) {
  try {
    return f();
  } catch (const std::domain_error& e) {
    return {std::nullopt, fmt::format("cannot be computed: {}", e.what())};
  } catch (const std::overflow_error& e) {
    return {std::nullopt, std::string(Stat::kOverflow)};
  }
}

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double reciprocal(double v) { return 1 / v; }
double log_of(double v) { return std::log(v); }

// Ratio interval (x / base) to a percentage interval, positive is better.
stats::Interval ratio_to_pct(stats::Interval r, bool higher_is_better) {
  if (higher_is_better) return {(r.low - 1) * 100, (r.high - 1) * 100};
  return {(1 - r.high) * 100, (1 - r.low) * 100};
}

// Fieller's confidence set for mean(b) / mean(a) intersected with
// [0, inf): its hull, `high` infinite when unbounded above; `cut` when the
// set reached below 0. Fieller's set is {r : (mb - r ma)^2 <= t^2 (vb +
// r^2 va)}: between the roots when ma^2 > t^2 va, else outside them, or
// the whole line when there are none.
struct RatioHull {
  stats::Interval r;
  bool cut = false;
};
RatioHull fieller_nonnegative(const Moments& a, const Moments& b, double t) {
  if (const auto r = stats::fieller_ratio(a.mean, a.se2, b.mean, b.se2, t)) {
    if (r->high < 0) return {{0, 0}, true};
    return {{std::max(r->low, 0.0), r->high}, r->low < 0};
  }
  const double lead = a.mean * a.mean - t * t * a.se2;
  const double disc = a.se2 * b.mean * b.mean + b.se2 * a.mean * a.mean - t * t * a.se2 * b.se2;
  if (lead < 0 && disc > 0) {
    const double root = t * std::sqrt(disc);
    const double r1 = (a.mean * b.mean - root) / lead, r2 = (a.mean * b.mean + root) / lead;
    const double lo = std::min(r1, r2), hi = std::max(r1, r2);
    // (-inf, lo] and [hi, inf): within [0, inf) the hull starts at hi when
    // lo is below 0.
    if (lo < 0 && hi > 0) return {{hi, kInfinity}, true};
  }
  return {{0, kInfinity}, true};
}

// The one bound a change keeps when its ratio's interval is [low, inf)
// or [0, high] with high infinite: "at least -37.50%".
std::string one_sided(stats::Interval ratio, bool higher_is_better) {
  const stats::Interval pct = ratio_to_pct(ratio, higher_is_better);
  return higher_is_better ? fmt::format("a change of at least {:+.2f}%", pct.low)
                          : fmt::format("a change of at most {:+.2f}%", pct.high);
}

}  // namespace

std::optional<Test> test_from_name(std::string_view name) {
  for (const auto& row : kTests)
    if (row.name == name) return row.test;
  return std::nullopt;
}

std::string_view test_name(Test t) {
  for (const auto& row : kTests)
    if (row.test == t) return row.name;
  return "?";
}

std::string_view test_title(Test t) {
  for (const auto& row : kTests)
    if (row.test == t) return row.title;
  return "?";
}

std::vector<std::string> test_names() {
  std::vector<std::string> names;
  for (const auto& row : kTests) names.emplace_back(row.name);
  return names;
}

std::optional<double> pct_better(bool higher_is_better, std::optional<double> base,
                                 std::optional<double> x) {
  if (!base || !x || *base == 0) return std::nullopt;
  const double gain = higher_is_better ? *x - *base : *base - *x;
  return gain / std::fabs(*base) * 100;
}

PValue p_value(Test t, std::span<const double> base, std::span<const double> x) {
  if (t == Test::kWelch) {
    if (base.size() < 2 || x.size() < 2) return {std::nullopt, "needs 2 samples per side"};
    return or_reason<PValue>([&]() -> PValue {
      const auto [sb, sx] = scaled_together(base, x);
      if (auto r = stats::welch_t_test(sb, sx)) {
        if (!std::isfinite(r->p_value)) return {std::nullopt, std::string(Stat::kOverflow)};
        return {r->p_value, {}};
      }
      return {std::nullopt, "no variance on either side"};
    });
  }
  if (base.empty() || x.empty()) return {std::nullopt, "needs 1 sample per side"};
  if (auto r = stats::mann_whitney(base, x)) return {r->p_value, {}};
  return {std::nullopt, "every value is the same"};
}

namespace {

PctInterval pct_interval_of(Centre centre, bool higher_is_better, std::span<const double> base,
                            std::span<const double> x, double level, ValueDomain domain) {
  if (centre == Centre::kMedian) return {std::nullopt, "no interval for a change of medians"};
  if (base.size() < 2 || x.size() < 2) return {std::nullopt, "needs 2 samples per side"};
  const auto positive = [](std::span<const double> s) {
    return std::all_of(s.begin(), s.end(), [](double v) { return v > 0; });
  };
  if (centre != Centre::kAmean && !(positive(base) && positive(x)))
    return {std::nullopt, "needs every sample > 0"};

  std::vector<double> ta, tb;  // the scale the interval is computed on
  switch (centre) {
    case Centre::kAmean: ta.assign(base.begin(), base.end()), tb.assign(x.begin(), x.end()); break;
    case Centre::kHmean: ta = mapped(base, reciprocal), tb = mapped(x, reciprocal); break;
    case Centre::kGmean: ta = mapped(base, log_of), tb = mapped(x, log_of); break;
    case Centre::kMedian: break;
  }
  // A ratio of means does not change with a common scale; logs need none
  // (and a scale would shift them).
  if (centre != Centre::kGmean) std::tie(ta, tb) = scaled_together(ta, tb);
  const Moments a = moments(ta), b = moments(tb);
  if (!(a.se2 + b.se2 > 0)) return {std::nullopt, "no variance on either side"};
  const double t = stats::t_quantile(1 - (1 - level) / 2, stats::welch_df(a.se2, a.n, b.se2, b.n));

  std::optional<stats::Interval> ratio;  // of the centres, x / base
  const bool nonnegative = domain == ValueDomain::kNonNegative;
  bool cut = false;  // the ratio's interval was cut at 0
  switch (centre) {
    case Centre::kAmean:
      if (!(a.mean > 0)) return {std::nullopt, "needs a baseline mean > 0"};
      if (nonnegative) {
        const RatioHull h = fieller_nonnegative(a, b, t);
        ratio = h.r;
        cut = h.cut;
      } else {
        ratio = stats::fieller_ratio(a.mean, a.se2, b.mean, b.se2, t);
      }
      break;
    case Centre::kHmean:
      // Fieller gives mean(1/x) / mean(1/base) = H(base) / H(x); invert it.
      if (nonnegative) {
        const RatioHull h = fieller_nonnegative(a, b, t);
        ratio = stats::Interval{1 / h.r.high, h.r.low > 0 ? 1 / h.r.low : kInfinity};
        cut = h.cut;
      } else if (auto r = stats::fieller_ratio(a.mean, a.se2, b.mean, b.se2, t); r && r->low > 0) {
        ratio = stats::Interval{1 / r->high, 1 / r->low};
      }
      break;
    case Centre::kGmean: {
      const double d = b.mean - a.mean, half = t * std::sqrt(a.se2 + b.se2);
      ratio = stats::Interval{std::exp(d - half), std::exp(d + half)};
      break;
    }
    case Centre::kMedian: break;
  }
  if (!ratio) return {std::nullopt, "baseline too noisy: the ratio's interval is unbounded"};
  if (!std::isfinite(ratio->high))
    return {std::nullopt,
            fmt::format("baseline too noisy: the ratio's interval is unbounded; cut to {} it "
                        "leaves {}",
                        domain_text(domain), one_sided(*ratio, higher_is_better))};
  PctInterval out{ratio_to_pct(*ratio, higher_is_better), {}, {}};
  if (!std::isfinite(out.ci->low) || !std::isfinite(out.ci->high))
    return {std::nullopt, std::string(Stat::kOverflow)};
  // A ratio cut at 0 is a change cut at -100% (higher is better) or +100%.
  if (cut) (higher_is_better ? out.cut.low : out.cut.high) = true;
  return out;
}

}  // namespace

PctInterval pct_interval(Centre centre, bool higher_is_better, std::span<const double> base,
                         std::span<const double> x, double level, ValueDomain domain) {
  return or_reason<PctInterval>(
      [&] { return pct_interval_of(centre, higher_is_better, base, x, level, domain); });
}

}  // namespace schedlab
