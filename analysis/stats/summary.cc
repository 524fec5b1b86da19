#include "analysis/stats/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace schedlab {
namespace {

// Why a mean of non-positive data is not defined, naming the first culprit.
std::string not_positive(std::span<const double> x, std::string_view what) {
  const auto bad = std::find_if(x.begin(), x.end(), [](double v) { return !(v > 0); });
  return fmt::format("{} is not defined: sample {} is {:g} (needs every sample > 0)", what,
                     bad - x.begin() + 1, *bad);
}

}  // namespace

std::optional<double> centre_of(std::span<const double> x, Centre c) {
  if (x.empty()) return std::nullopt;
  switch (c) {
    case Centre::kAmean: return stats::amean(x);
    case Centre::kHmean: return stats::hmean(x);
    case Centre::kGmean: return stats::gmean(x);
    case Centre::kMedian: return stats::median(x);
  }
  return std::nullopt;
}

CentreInterval centre_interval(std::span<const double> x, Centre centre, double level) {
  CentreInterval out;
  out.level = level;
  const std::size_t n = x.size();
  if (n < 2) {
    out.reason = n == 0 ? "no samples" : "one sample: no interval";
    switch (centre) {
      case Centre::kAmean: out.method = "student-t"; break;
      case Centre::kHmean: out.method = "t on reciprocals"; break;
      case Centre::kGmean: out.method = "t on logs"; break;
      case Centre::kMedian: out.method = "order statistics"; break;
    }
    return out;
  }
  const bool positive = std::all_of(x.begin(), x.end(), [](double v) { return v > 0; });
  switch (centre) {
    case Centre::kAmean:
      out.method = "student-t";
      out.ci = stats::amean_ci(x, level);
      if (!out.ci) out.reason = "all samples are equal: no spread";
      break;
    case Centre::kHmean:
      out.method = "t on reciprocals";
      out.ci = stats::hmean_ci(x, level);
      if (!positive) out.reason = not_positive(x, "hmean");
      else if (!out.ci)
        out.reason = stats::variance(x) == 0.0 ? "all samples are equal: no spread"
                                               : "interval of 1/x reaches 0: unbounded above";
      break;
    case Centre::kGmean:
      out.method = "t on logs";
      out.ci = stats::gmean_ci(x, level);
      if (!positive) out.reason = not_positive(x, "gmean");
      else if (!out.ci) out.reason = "all samples are equal: no spread";
      break;
    case Centre::kMedian: {
      out.method = "order statistics";
      if (auto m = stats::median_ci(x, level)) {
        out.ci = m->ci;
      } else {
        out.reason = fmt::format("{} samples are too few for a {:g}% distribution-free interval",
                                 n, level * 100);
      }
      break;
    }
  }
  if (out.ci && !(std::isfinite(out.ci->low) && std::isfinite(out.ci->high))) {
    out.ci.reset();
    out.reason = Stat::kOverflow;
  }
  return out;
}

Summary summarize(std::span<const double> x, Centre centre, double level) {
  Summary s;
  s.n = x.size();
  s.centre = centre;
  if (x.empty()) {
    const Stat none = Stat::none("no samples");
    s.min = s.max = s.median = s.amean = s.gmean = s.hmean = s.stddev = s.coefvar = none;
    s.centre_value = none;
    s.ci = centre_interval(x, centre, level);
    return s;
  }
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  s.min = Stat::of(*lo);
  s.max = Stat::of(*hi);
  s.median = Stat::of(stats::median(x));
  s.amean = Stat::of(stats::amean(x));
  s.hmean = Stat::of(stats::hmean(x), *lo > 0 ? "" : not_positive(x, "hmean"));
  s.gmean = Stat::of(stats::gmean(x), *lo > 0 ? "" : not_positive(x, "gmean"));
  s.stddev = Stat::of(stats::stddev(x), "one sample: no spread");
  if (!s.stddev)
    s.coefvar = Stat::none("one sample: no spread");
  else if (*s.amean.value == 0)
    s.coefvar = Stat::none("amean is 0");
  else
    s.coefvar = Stat::of(*s.stddev.value / std::fabs(*s.amean.value) * 100);
  switch (centre) {
    case Centre::kAmean: s.centre_value = s.amean; break;
    case Centre::kHmean: s.centre_value = s.hmean; break;
    case Centre::kGmean: s.centre_value = s.gmean; break;
    case Centre::kMedian: s.centre_value = s.median; break;
  }
  s.ci = centre_interval(x, centre, level);
  return s;
}

}  // namespace schedlab
