#include "analysis/stats.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
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

namespace {

// Sample variance (n - 1); caller guarantees n >= 2.
double variance(std::span<const double> x) {
  const double m = amean(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return ss / static_cast<double>(x.size() - 1);
}

}  // namespace

std::optional<double> stddev(std::span<const double> x) {
  if (x.size() < 2) return std::nullopt;
  return std::sqrt(variance(x));
}

std::optional<TTest> welch_t_test(std::span<const double> a, std::span<const double> b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const double na = static_cast<double>(a.size());
  const double nb = static_cast<double>(b.size());
  const double qa = variance(a) / na;  // squared standard error of each mean
  const double qb = variance(b) / nb;
  const double se2 = qa + qb;
  if (!(se2 > 0)) return std::nullopt;
  TTest r;
  r.t = (amean(a) - amean(b)) / std::sqrt(se2);
  r.df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1));
  const boost::math::students_t dist(r.df);
  r.p_value = 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t)));
  return r;
}

}  // namespace schedlab::stats
