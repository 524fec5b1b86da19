#include "analysis/stats/stats.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace schedlab::stats {

double amean(std::span<const double> x) {
  if (x.empty()) throw std::domain_error("amean of no samples");
  double sum = 0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

std::optional<double> hmean(std::span<const double> x) {
  if (x.empty()) return std::nullopt;
  double inv = 0;
  for (double v : x) {
    if (!(v > 0)) return std::nullopt;
    inv += 1 / v;
  }
  return static_cast<double>(x.size()) / inv;
}

std::optional<double> gmean(std::span<const double> x) {
  if (x.empty()) return std::nullopt;
  // Mean of logs: a running product over- or underflows on long series.
  double logs = 0;
  for (double v : x) {
    if (!(v > 0)) return std::nullopt;
    logs += std::log(v);
  }
  return std::exp(logs / static_cast<double>(x.size()));
}

double median(std::span<const double> x) {
  if (x.empty()) throw std::domain_error("median of no samples");
  std::vector<double> s(x.begin(), x.end());
  std::sort(s.begin(), s.end());
  const std::size_t mid = s.size() / 2;
  return s.size() % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

std::optional<double> variance(std::span<const double> x) {
  if (x.size() < 2) return std::nullopt;
  const double m = amean(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return ss / static_cast<double>(x.size() - 1);
}

std::optional<double> stddev(std::span<const double> x) {
  auto v = variance(x);
  if (!v) return std::nullopt;
  return std::sqrt(*v);
}

double t_quantile(double p, double df) {
  return boost::math::quantile(boost::math::students_t(df), p);
}

double normal_quantile(double p) {
  return boost::math::quantile(boost::math::normal(), p);
}

namespace {

void check_level(double level) {
  if (!(level > 0 && level < 1))
    throw std::invalid_argument("confidence level must be between 0 and 1");
}

// Mean +- t * standard error, or empty when there is no spread to speak of.
std::optional<Interval> t_interval(std::span<const double> x, double level) {
  check_level(level);
  const auto v = variance(x);
  if (!v || !(*v > 0)) return std::nullopt;
  const double n = static_cast<double>(x.size());
  const double m = amean(x);
  const double half = t_quantile(1 - (1 - level) / 2, n - 1) * std::sqrt(*v / n);
  return Interval{m - half, m + half};
}

bool all_positive(std::span<const double> x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return v > 0; });
}

}  // namespace

std::optional<Interval> amean_ci(std::span<const double> x, double level) {
  return t_interval(x, level);
}

std::optional<Interval> hmean_ci(std::span<const double> x, double level) {
  if (!all_positive(x)) return std::nullopt;
  std::vector<double> r(x.size());
  std::transform(x.begin(), x.end(), r.begin(), [](double v) { return 1 / v; });
  auto ci = t_interval(r, level);
  if (!ci || !(ci->low > 0)) return std::nullopt;
  return Interval{1 / ci->high, 1 / ci->low};
}

std::optional<Interval> gmean_ci(std::span<const double> x, double level) {
  if (!all_positive(x)) return std::nullopt;
  std::vector<double> l(x.size());
  std::transform(x.begin(), x.end(), l.begin(), [](double v) { return std::log(v); });
  auto ci = t_interval(l, level);
  if (!ci) return std::nullopt;
  return Interval{std::exp(ci->low), std::exp(ci->high)};
}

std::optional<MedianInterval> median_ci(std::span<const double> x, double level) {
  check_level(level);
  const std::size_t n = x.size();
  if (n == 0) return std::nullopt;
  const double tail = (1 - level) / 2;
  const boost::math::binomial_distribution<double> b(static_cast<double>(n), 0.5);
  // Ranks l = 1, 2, ... widen nothing but narrow the interval; stop at the
  // last one whose tail probability P(B <= l - 1) still fits in `tail`.
  std::size_t l = 0;
  double p_below = 0;
  for (std::size_t r = 1; r <= (n + 1) / 2; ++r) {
    const double p = boost::math::cdf(b, static_cast<double>(r - 1));
    if (p > tail) break;
    l = r;
    p_below = p;
  }
  if (l == 0) return std::nullopt;
  std::vector<double> s(x.begin(), x.end());
  std::sort(s.begin(), s.end());
  MedianInterval out;
  out.lower_rank = l;
  out.upper_rank = n + 1 - l;
  out.ci = {s[out.lower_rank - 1], s[out.upper_rank - 1]};
  out.coverage = 1 - 2 * p_below;
  return out;
}

double welch_df(double se2_a, double n_a, double se2_b, double n_b) {
  const double se2 = se2_a + se2_b;
  const double df = se2 * se2 / (se2_a * se2_a / (n_a - 1) + se2_b * se2_b / (n_b - 1));
  if (std::isfinite(df) || !std::isfinite(se2) || !(se2 > 0)) return df;
  // Squares past a double's range (standard errors above ~1e154): the same
  // ratio from each side's share of se2, which is at most 1.
  const double fa = se2_a / se2, fb = se2_b / se2;
  return 1 / (fa * fa / (n_a - 1) + fb * fb / (n_b - 1));
}

std::optional<TTest> welch_t_test(std::span<const double> a, std::span<const double> b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const double na = static_cast<double>(a.size());
  const double nb = static_cast<double>(b.size());
  const double qa = *variance(a) / na;  // squared standard error of each mean
  const double qb = *variance(b) / nb;
  const double se2 = qa + qb;
  if (!(se2 > 0)) return std::nullopt;
  TTest r;
  r.t = (amean(a) - amean(b)) / std::sqrt(se2);
  r.df = welch_df(qa, na, qb, nb);
  const boost::math::students_t dist(r.df);
  r.p_value = 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t)));
  return r;
}

namespace {

// Frequencies of W = #{(i, j): a_i > b_j} for na and nb untied samples under
// the null hypothesis, index 0..na*nb. Built with the additive recurrence
// f(m, n, k) = f(m - 1, n, k - n) + f(m, n - 1, k): no subtraction, so the
// small tail counts that make small p-values stay exact in doubles.
std::vector<double> w_frequencies(std::size_t na, std::size_t nb) {
  // prev[n] = f(m - 1, n, .), cur[n] = f(m, n, .), for n = 0..nb.
  std::vector<std::vector<double>> prev(nb + 1, std::vector<double>{1.0});
  std::vector<std::vector<double>> cur(nb + 1);
  for (std::size_t m = 1; m <= na; ++m) {
    cur[0] = {1.0};
    for (std::size_t n = 1; n <= nb; ++n) {
      std::vector<double>& f = cur[n];
      f.assign(m * n + 1, 0.0);
      const std::vector<double>& left = prev[n];     // f(m - 1, n, .)
      const std::vector<double>& down = cur[n - 1];  // f(m, n - 1, .)
      for (std::size_t k = 0; k < left.size(); ++k) f[k + n] += left[k];
      for (std::size_t k = 0; k < down.size(); ++k) f[k] += down[k];
    }
    std::swap(prev, cur);
  }
  return prev[nb];
}

}  // namespace

std::optional<MwuTest> mann_whitney(std::span<const double> a, std::span<const double> b,
                                    MwuMethod method) {
  if (a.empty() || b.empty()) return std::nullopt;
  const std::size_t na = a.size(), nb = b.size(), n = na + nb;
  // Mid-ranks of the pooled sample; tie group sizes for the variance.
  std::vector<std::pair<double, std::size_t>> pooled;
  pooled.reserve(n);
  for (std::size_t i = 0; i < na; ++i) pooled.push_back({a[i], i});
  for (std::size_t j = 0; j < nb; ++j) pooled.push_back({b[j], na + j});
  std::sort(pooled.begin(), pooled.end());
  std::vector<double> rank(n);
  double tie_term = 0;  // sum of t^3 - t over tie groups
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && pooled[j + 1].first == pooled[i].first) ++j;
    const double mid = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k) rank[pooled[k].second] = mid;
    const double t = static_cast<double>(j - i + 1);
    tie_term += t * t * t - t;
    i = j + 1;
  }
  MwuTest r;
  r.ties = tie_term > 0;
  double rank_sum_a = 0;
  for (std::size_t i = 0; i < na; ++i) rank_sum_a += rank[i];
  const double dna = static_cast<double>(na), dnb = static_cast<double>(nb);
  r.w = rank_sum_a - dna * (dna + 1) / 2;

  r.exact = method == MwuMethod::kExact || (method == MwuMethod::kAuto && na < 50 && nb < 50 && !r.ties);
  if (r.exact) {
    if (r.ties) return std::nullopt;
    const auto f = w_frequencies(na, nb);
    const double total = std::accumulate(f.begin(), f.end(), 0.0);
    // The smaller tail, summed from its end: P(W' <= w) or P(W' >= w).
    const auto w = static_cast<std::size_t>(std::llround(r.w));
    double tail = 0;
    if (r.w > dna * dnb / 2) {
      for (std::size_t k = w; k < f.size(); ++k) tail += f[k];
    } else {
      for (std::size_t k = 0; k <= w; ++k) tail += f[k];
    }
    r.p_value = std::min(1.0, 2 * tail / total);
    return r;
  }
  const double dn = static_cast<double>(n);
  const double sigma =
      std::sqrt(dna * dnb / 12 * ((dn + 1) - tie_term / (dn * (dn - 1))));
  if (!(sigma > 0)) return std::nullopt;
  double z = r.w - dna * dnb / 2;
  const double correction = z > 0 ? 0.5 : z < 0 ? -0.5 : 0.0;  // sign(z) / 2, as R
  z = (z - correction) / sigma;
  const boost::math::normal norm;
  r.p_value = 2 * std::min(boost::math::cdf(norm, z),
                           boost::math::cdf(boost::math::complement(norm, z)));
  return r;
}

std::optional<Interval> fieller_ratio(double ma, double va, double mb, double vb, double t) {
  const double t2 = t * t;
  const double a = ma * ma - t2 * va;
  if (!(a > 0)) return std::nullopt;
  const double disc = va * mb * mb + vb * ma * ma - t2 * va * vb;
  const double root = t * std::sqrt(std::max(0.0, disc));
  const double r1 = (ma * mb - root) / a, r2 = (ma * mb + root) / a;
  return Interval{std::min(r1, r2), std::max(r1, r2)};
}

}  // namespace schedlab::stats
