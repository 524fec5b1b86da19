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

TEST_CASE("a short row (few looks after the first) by the first look's needed n over its n",
          "[sequential]") {
  // Without a ratio, the long row; below the short row's ratio, the short one, which spends more.
  const UnsettledCalibration long4 = unsettled_calibration(0.05, 0.8, 4);
  CHECK(!std::isfinite(long4.below_ratio));
  const UnsettledCalibration short4 = unsettled_calibration(0.05, 0.8, 4, 3);
  REQUIRE(std::isfinite(short4.below_ratio));
  CHECK(short4.calibrated);
  CHECK(short4.alpha_ratio > long4.alpha_ratio);
  CHECK(unsettled_calibration(0.05, 0.8, 6, short4.below_ratio - 0.01).alpha_ratio ==
        short4.alpha_ratio);
  CHECK(unsettled_calibration(0.05, 0.8, 6, short4.below_ratio).alpha_ratio == long4.alpha_ratio);
  const UnsettledCalibration short8 = unsettled_calibration(0.05, 0.8, 8, 2);
  CHECK(short8.alpha_ratio > unsettled_calibration(0.05, 0.8, 8).alpha_ratio);
  CHECK(short8.alpha_ratio > short4.alpha_ratio);
  // Rows measured without a short one keep their long row at any ratio.
  CHECK(unsettled_calibration(0.01, 0.8, 4, 1).alpha_ratio ==
        unsettled_calibration(0.01, 0.8, 4).alpha_ratio);
  // The largest margin is still the plan's bound on power + margin.
  CHECK(unsettled_max_margin(0.05, 0.8) >= short4.power_margin);
}
