#include "analysis/sequential/sequential_calibration.h"

#include <algorithm>
#include <cmath>

namespace schedlab {
namespace {

struct CalibrationRow {
  double alpha, power, first_df;
  UnsettledCalibration level;
};

// bench/calibrate_unsettled_alpha.sh's choices (analysis/README.md has the
// measured type I and power of each row). Rows of one alpha and power
// come in increasing first_df; a first look takes the last row at or below
// its degrees of freedom. Alpha 0.05, power 0.8: normal and log-normal
// noise, 4,000 trials to choose, 20,000 to check (bench_sequential). The
// others: normal noise, 3,000-8,000 trials; alpha 0.1 kept alpha 0.05's
// rows (type I 0.074-0.1015 with them).
constexpr CalibrationRow kCalibrationRows[] = {
    {0.01, 0.8, 4, {0.62, 0.04, true, 0.01, 0.8}},  {0.01, 0.8, 8, {0.74, 0.025, true, 0.01, 0.8}},
    {0.05, 0.8, 4, {0.75, 0.045, true, 0.05, 0.8}}, {0.05, 0.8, 8, {0.84, 0.025, true, 0.05, 0.8}},
    {0.05, 0.9, 4, {0.66, 0.035, true, 0.05, 0.9}}, {0.05, 0.9, 8, {0.82, 0.015, true, 0.05, 0.9}},
    {0.1, 0.8, 4, {0.75, 0.045, true, 0.1, 0.8}},   {0.1, 0.8, 8, {0.84, 0.025, true, 0.1, 0.8}},
};

}  // namespace

UnsettledCalibration unsettled_calibration(double alpha, double power, double first_df) {
  // The nearest calibrated alpha (on the log scale), then power.
  const CalibrationRow* nearest = &kCalibrationRows[0];
  for (const CalibrationRow& r : kCalibrationRows) {
    const double d = std::fabs(std::log(r.alpha / alpha)),
                 best = std::fabs(std::log(nearest->alpha / alpha));
    if (d < best - 1e-12 ||
        (d < best + 1e-12 && std::fabs(r.power - power) < std::fabs(nearest->power - power)))
      nearest = &r;
  }
  const CalibrationRow* row = nullptr;
  for (const CalibrationRow& r : kCalibrationRows)
    if (r.alpha == nearest->alpha && r.power == nearest->power &&
        (row == nullptr || r.first_df <= first_df))
      row = &r;
  UnsettledCalibration c = row->level;
  // Exact: a design states alpha and power as the table does (0.05, 0.8).
  c.calibrated = c.calibrated && std::fabs(alpha - row->alpha) < 1e-12 &&
                 std::fabs(power - row->power) < 1e-12 && first_df >= 4;
  return c;
}

double unsettled_max_margin(double alpha, double power) {
  const UnsettledCalibration nearest = unsettled_calibration(alpha, power, 0);
  double margin = 0;
  for (const CalibrationRow& r : kCalibrationRows)
    if (r.alpha == nearest.alpha && r.power == nearest.power)
      margin = std::max(margin, r.level.power_margin);
  return margin;
}

}  // namespace schedlab
