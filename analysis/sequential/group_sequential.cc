#include "analysis/sequential/group_sequential.h"

#include <fmt/format.h>

#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "analysis/stats/stats.h"

namespace schedlab::gs {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double upper_tail(double x) {
  return 0.5 * std::erfc(x * M_SQRT1_2);
}  // 1 - Phi(x)
double lower_tail(double x) {
  return 0.5 * std::erfc(-x * M_SQRT1_2);
}  // Phi(x)

// Jennison & Turnbull's points (section 19.2.1) around mu, cut to
// [lo, hi] with the ends kept, then midpoints and Simpson weights appended
// to z and w.
void append_grid(double mu, double lo, double hi, int r, std::vector<double>& z,
                 std::vector<double>& w) {
  if (!(lo < hi)) return;
  const double rr = r;
  std::vector<double> g;
  g.reserve(6 * r);
  for (int i = 1; i <= 6 * r - 1; ++i) {
    if (i < r)
      g.push_back(mu - 3 - 4 * std::log(rr / i));
    else if (i <= 5 * r)
      g.push_back(mu - 3 + 3.0 * (i - r) / (2 * rr));
    else
      g.push_back(mu + 3 + 4 * std::log(rr / (6 * r - i)));
  }
  // The grid's points inside (lo, hi), with a bound as an end point where
  // it cuts the grid; beyond the grid's reach the density is negligible.
  std::vector<double> x;
  if (lo > g.front()) x.push_back(lo);
  for (double v : g)
    if (v > lo && v < hi) x.push_back(v);
  if (hi < g.back()) x.push_back(hi);
  if (x.size() < 2) return;
  const std::size_t n = x.size();
  for (std::size_t j = 0; j < n; ++j) {
    const double left = j > 0 ? x[j] - x[j - 1] : 0;
    const double right = j + 1 < n ? x[j + 1] - x[j] : 0;
    z.push_back(x[j]);
    w.push_back((left + right) / 6);
    if (j + 1 < n) {
      z.push_back((x[j] + x[j + 1]) / 2);
      w.push_back(4 * right / 6);
    }
  }
}

}  // namespace

double obf_spent(double alpha, double t) {
  if (t <= 0) return 0;
  if (t >= 1) return alpha;
  const double z = stats::normal_quantile(1 - alpha / 4);
  return 4 * upper_tail(z / std::sqrt(t));
}

double spent(const Spending& f, double alpha, double t) {
  if (t <= 0) return 0;
  if (t >= 1) return alpha;
  switch (f.kind) {
    case SpendingKind::kObf:
      return obf_spent(alpha, t);
    case SpendingKind::kPocock:
      return alpha * std::log1p((M_E - 1) * t);
    case SpendingKind::kKimDeMets:
      return alpha * std::pow(t, f.rho);
  }
  return alpha;
}

std::string spending_name(const Spending& f) {
  switch (f.kind) {
    case SpendingKind::kObf:
      return "obf";
    case SpendingKind::kPocock:
      return "pocock";
    case SpendingKind::kKimDeMets:
      return fmt::format("kd({:g})", f.rho);
  }
  return "obf";
}

std::optional<Spending> parse_spending(std::string_view name) {
  if (name == "obf") return Spending{SpendingKind::kObf};
  if (name == "pocock") return Spending{SpendingKind::kPocock};
  if (name == "kd") return Spending{SpendingKind::kKimDeMets, 2};
  if (name.starts_with("kd(") && name.ends_with(")")) {
    const std::string inner(name.substr(3, name.size() - 4));
    char* end = nullptr;
    const double rho = std::strtod(inner.c_str(), &end);
    if (!inner.empty() && end == inner.c_str() + inner.size() && rho >= 0.5 && rho <= 5)
      return Spending{SpendingKind::kKimDeMets, rho};
  }
  return std::nullopt;
}

PathDensity::PathDensity(double eta, int r) : eta_(eta), r_(r), z_{0.0}, w_{1.0} {
  if (r < 2) throw std::invalid_argument("grid size r must be at least 2");
}

double PathDensity::continuing() const {
  double m = 0;
  for (double v : w_) m += v;
  return m;
}

double PathDensity::mass_between(double t, double lo, double hi) const {
  if (!(t > t_))
    throw std::invalid_argument("a look's information fraction must exceed the last one's");
  const double st = std::sqrt(t), ss = std::sqrt(t_), sd = std::sqrt(t - t_);
  const double drift = eta_ * (t - t_);
  double m = 0;
  for (std::size_t i = 0; i < z_.size(); ++i) {
    const double a = z_[i] * ss + drift;
    const double p_hi = hi == kInf ? 1 : lower_tail((hi * st - a) / sd);
    const double p_lo = lo == -kInf ? 0 : lower_tail((lo * st - a) / sd);
    m += w_[i] * (p_hi - p_lo);
  }
  return m;
}

double PathDensity::tail_above(double t, double z) const {
  return mass_between(t, z, kInf);
}

Exits PathDensity::exits(const LookRegion& next) const {
  Exits e;
  if (next.upper != kInf) {
    e.above = mass_between(next.t, next.upper, kInf);
    e.below = mass_between(next.t, -kInf, -next.upper);
  }
  const double inner = std::min(next.inner, next.upper);
  if (inner > 0) e.inner = mass_between(next.t, -inner, inner);
  return e;
}

void PathDensity::advance(const LookRegion& next) {
  if (!(next.t > t_))
    throw std::invalid_argument("a look's information fraction must exceed the last one's");
  const double mu = eta_ * std::sqrt(next.t);
  std::vector<double> z, simpson;
  if (next.inner > 0) {
    append_grid(mu, -next.upper, -next.inner, r_, z, simpson);
    append_grid(mu, next.inner, next.upper, r_, z, simpson);
  } else {
    append_grid(mu, -next.upper, next.upper, r_, z, simpson);
  }
  const double st = std::sqrt(next.t), ss = std::sqrt(t_), sd = std::sqrt(next.t - t_);
  const double drift = eta_ * (next.t - t_);
  const double scale = st / sd / std::sqrt(2 * M_PI);
  std::vector<double> a(z_.size());
  for (std::size_t i = 0; i < z_.size(); ++i) a[i] = z_[i] * ss + drift;
  std::vector<double> w(z.size());
  for (std::size_t j = 0; j < z.size(); ++j) {
    const double zj = z[j] * st;
    double density = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double u = (zj - a[i]) / sd;
      // Beyond 38 standard deviations exp underflows to 0 anyway.
      if (u * u < 1444) density += w_[i] * std::exp(-0.5 * u * u);
    }
    w[j] = simpson[j] * density * scale;
  }
  z_ = std::move(z);
  w_ = std::move(w);
  t_ = next.t;
  ++looks_;
}

double bound_for(const PathDensity& h, double t, double spend) {
  if (spend <= 0) return kInf;
  const double going = h.continuing();
  if (spend >= going) return 0;
  auto excess = [&](double c) {
    const Exits e = h.exits({t, c, 0});
    return e.above + e.below - spend;
  };
  double hi = 8;
  while (excess(hi) > 0) hi *= 2;
  std::uintmax_t iterations = 200;
  const auto [lo_c, hi_c] =
      boost::math::tools::toms748_solve(excess, 0.0, hi, going - spend, excess(hi),
                                        boost::math::tools::eps_tolerance<double>(45), iterations);
  return (lo_c + hi_c) / 2;
}

std::vector<double> spending_bounds(const Spending& f, double alpha, const std::vector<double>& t,
                                    bool last_spends_all, int r) {
  PathDensity h(0, r);
  std::vector<double> c;
  double so_far = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const bool last = last_spends_all && k + 1 == t.size();
    const double target = last ? alpha : spent(f, alpha, t[k]);
    const double bound = bound_for(h, t[k], target - so_far);
    c.push_back(bound);
    so_far = std::max(so_far, target);
    h.advance({t[k], bound, 0});
  }
  return c;
}

PathOutcome path_outcome(double eta, const std::vector<LookRegion>& regions, int r) {
  PathDensity h(eta, r);
  PathOutcome o;
  for (const auto& region : regions) {
    const Exits e = h.exits(region);
    o.at_look.push_back(e);
    o.above += e.above;
    o.below += e.below;
    o.inner += e.inner;
    o.expected_fraction += region.t * (e.above + e.below + e.inner);
    h.advance(region);
  }
  if (!regions.empty()) o.expected_fraction += regions.back().t * h.continuing();
  return o;
}

double stagewise_p(const std::vector<double>& t, const std::vector<double>& bounds, double z,
                   int r) {
  if (t.empty() || bounds.size() + 1 < t.size())
    throw std::invalid_argument("stage-wise ordering needs a bound for every earlier look");
  PathDensity h(0, r);
  double p = 0;
  for (std::size_t j = 0; j + 1 < t.size(); ++j) {
    const LookRegion region{t[j], bounds[j], 0};
    const Exits e = h.exits(region);
    p += e.above + e.below;
    h.advance(region);
  }
  const Exits last = h.exits({t.back(), std::fabs(z), 0});
  return std::min(1.0, p + last.above + last.below);
}

StagewiseInterval stagewise_interval(const std::vector<double>& t,
                                     const std::vector<double>& bounds, double z, double level,
                                     int r) {
  if (t.empty() || bounds.size() + 1 < t.size())
    throw std::invalid_argument("stage-wise ordering needs a bound for every earlier look");
  if (!(level > 0 && level < 1)) throw std::invalid_argument("level must be in (0, 1)");
  const double tk = t.back(), w = std::fabs(z), sign = z < 0 ? -1 : 1;
  // P(an outcome at least as extreme the observed way) when the drift at
  // the last look is phi: an earlier crossing of that bound, or Z_k >= w.
  auto as_extreme = [&](double phi) {
    PathDensity h(phi / std::sqrt(tk), r);
    double sum = 0;
    for (std::size_t j = 0; j + 1 < t.size(); ++j) {
      const LookRegion region{t[j], bounds[j], 0};
      sum += h.exits(region).above;
      h.advance(region);
    }
    return sum + h.tail_above(tk, w);
  };
  auto root = [&](double target) {
    auto f = [&](double phi) { return as_extreme(phi) - target; };
    double lo = w - 10, hi = w + 10;
    double flo = f(lo), fhi = f(hi);
    while (flo > 0) flo = f(lo -= 10);
    while (fhi < 0) fhi = f(hi += 10);
    std::uintmax_t iterations = 200;
    const auto [a, b] = boost::math::tools::toms748_solve(
        f, lo, hi, flo, fhi, boost::math::tools::eps_tolerance<double>(40), iterations);
    return (a + b) / 2;
  };
  const double tail = (1 - level) / 2;
  const double lo = root(tail), hi = root(1 - tail), mid = root(0.5);
  StagewiseInterval s;
  s.low = std::min(sign * lo, sign * hi);
  s.high = std::max(sign * lo, sign * hi);
  s.estimate = sign * mid;
  return s;
}

}  // namespace schedlab::gs
