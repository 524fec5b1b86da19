#include "base/sample_range.h"

#include <fmt/format.h>

#include <cmath>

namespace schedlab {

std::optional<std::string> sample_out_of_range(double x) {
  if (!std::isfinite(x)) return fmt::format("{} is not finite", x);
  const double a = std::fabs(x);
  if (a > kSampleMax) return fmt::format("{:g} is outside +-{:g}", x, kSampleMax);
  if (a != 0 && a < kSampleMinNonZero)
    return fmt::format("{:g} is nearer 0 than {:g} (and not 0)", x, kSampleMinNonZero);
  return std::nullopt;
}

std::optional<std::string> count_out_of_range(double x) {
  if (std::signbit(x) && !std::isnan(x)) return fmt::format("{:g} is negative: no count is", x);
  return sample_out_of_range(x);
}

std::optional<std::string> share_out_of_range(double x) {
  if (!std::isfinite(x)) return fmt::format("{} is not finite", x);
  if (x < 0 || x > 100 + 1e-9) return fmt::format("{:g} is outside 0-100: no share is", x);
  return std::nullopt;
}

}  // namespace schedlab
