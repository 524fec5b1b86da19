#include "analysis/sequential/seeded_normal.h"

#include <cmath>

namespace schedlab {

double SeededNormal::operator()() {
  const double u1 = (static_cast<double>(rng_() >> 11) + 1) * 0x1.0p-53;  // (0, 1]
  const double u2 = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

}  // namespace schedlab
