// The calibrated level of a test not settled at its first look: the row by
// alpha, power and the first look's degrees of freedom, and whether it was
// measured there.
#include "analysis/sequential/sequential_calibration.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace schedlab;

TEST_CASE("a calibration row by alpha, power and the first look's degrees of freedom",
          "[sequential]") {
  // 4 and 6 degrees of freedom (3 and 4 a side) take the row of 4; 8 to 10 the row of 8.
  const UnsettledCalibration at4 = unsettled_calibration(0.05, 0.8, 4);
  CHECK(at4.calibrated);
  CHECK(at4.alpha_ratio < 1);
  CHECK(unsettled_calibration(0.05, 0.8, 6).alpha_ratio == at4.alpha_ratio);
  const UnsettledCalibration at8 = unsettled_calibration(0.05, 0.8, 8);
  CHECK(at8.calibrated);
  CHECK(at8.alpha_ratio > at4.alpha_ratio);  // a better known variance inflates alpha less
  CHECK(unsettled_calibration(0.05, 0.8, 10).alpha_ratio == at8.alpha_ratio);
  // Two degrees of freedom (min 2): the row of 4, not measured there.
  CHECK(!unsettled_calibration(0.05, 0.8, 2).calibrated);
  CHECK(unsettled_calibration(0.05, 0.8, 2).alpha_ratio == at4.alpha_ratio);
  // Each calibrated alpha and power is measured; between them, the nearest
  // (alpha on the log scale), not calibrated.
  for (double alpha : {0.01, 0.05, 0.1}) CHECK(unsettled_calibration(alpha, 0.8, 4).calibrated);
  CHECK(unsettled_calibration(0.05, 0.9, 8).calibrated);
  const UnsettledCalibration a02 = unsettled_calibration(0.02, 0.8, 4);
  CHECK(!a02.calibrated);
  CHECK(a02.alpha == 0.01);
  CHECK(a02.alpha_ratio == unsettled_calibration(0.01, 0.8, 4).alpha_ratio);
  const UnsettledCalibration p95 = unsettled_calibration(0.05, 0.95, 4);
  CHECK(!p95.calibrated);
  CHECK(p95.power == 0.9);
  CHECK(unsettled_max_margin(0.05, 0.8) == Approx(at4.power_margin));
}

TEST_CASE("no row is short: a first look takes the long row whatever its needed n",
          "[sequential]") {
  // The short rows measured broke type I at CV 3% (sequential_calibration.cc).
  for (double alpha : {0.01, 0.05, 0.1})
    for (double df : {4.0, 8.0})
      for (double ratio : {0.5, 2.0, 5.0, 100.0}) {
        const UnsettledCalibration c = unsettled_calibration(alpha, 0.8, df, ratio);
        CHECK(!std::isfinite(c.below_ratio));
        CHECK(c.alpha_ratio == unsettled_calibration(alpha, 0.8, df).alpha_ratio);
      }
}
