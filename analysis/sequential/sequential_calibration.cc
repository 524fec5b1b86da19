#include "analysis/sequential/sequential_calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace schedlab {
namespace {

struct CalibrationRow {
  double alpha, power, first_df;
  UnsettledCalibration level;  // its below_ratio: +inf for a long row
};

constexpr double kLong = std::numeric_limits<double>::infinity();

// bench/calibrate_unsettled_alpha.sh's choices (analysis/README.md has the
// measured type I and power of each row). Rows of one alpha and power
// come in increasing first_df, a short row (few looks follow) before the
// long one of its df; a first look takes the rows of the last first_df at
// or below its degrees of freedom, the short one when its needed n is below
// below_ratio times its n. No row is short: the short rows measured (alpha
// 0.05, power 0.8: x 0.82 below 6 x n from 4 degrees of freedom, x 0.92 and
// margin 0.005 below 4 x n from 8) held type I at CV 2%, 4% and 10% but
// not at CV 3% (0.0520-0.0587 at 4,000 trials against 0.0442-0.0537
// without them: there the tests whose first variance is low take the short
// level, and they are the ones whose |t| is high); SequentialDesign's
// short_alpha_ratio measures them. Alpha 0.05, power 0.8: normal and log-normal
// noise, 4,000 trials to choose, 20,000 to check (bench_sequential); the row
// of 8 was x 0.84 until CV 3%, min 5, log-normal had type I 0.0545 with it
// at 20,000 trials (x 0.80: 0.0520). The others: normal noise, 3,000-8,000
// trials, long rows only; alpha 0.1 kept alpha 0.05's long rows of that
// time, x 0.75 and x 0.84 (type I 0.074-0.1015 with them).
constexpr CalibrationRow kCalibrationRows[] = {
    {0.01, 0.8, 4, {0.62, 0.04, true, 0.01, 0.8, kLong}},
    {0.01, 0.8, 8, {0.74, 0.025, true, 0.01, 0.8, kLong}},
    {0.05, 0.8, 4, {0.75, 0.045, true, 0.05, 0.8, kLong}},
    {0.05, 0.8, 8, {0.80, 0.025, true, 0.05, 0.8, kLong}},
    {0.05, 0.9, 4, {0.66, 0.035, true, 0.05, 0.9, kLong}},
    {0.05, 0.9, 8, {0.82, 0.015, true, 0.05, 0.9, kLong}},
    {0.1, 0.8, 4, {0.75, 0.045, true, 0.1, 0.8, kLong}},
    {0.1, 0.8, 8, {0.84, 0.025, true, 0.1, 0.8, kLong}},
};

}  // namespace

UnsettledCalibration unsettled_calibration(double alpha, double power, double first_df,
                                           double needed_ratio) {
  // The nearest calibrated alpha (on the log scale), then power.
  const CalibrationRow* nearest = &kCalibrationRows[0];
  for (const CalibrationRow& r : kCalibrationRows) {
    const double d = std::fabs(std::log(r.alpha / alpha)),
                 best = std::fabs(std::log(nearest->alpha / alpha));
    if (d < best - 1e-12 ||
        (d < best + 1e-12 && std::fabs(r.power - power) < std::fabs(nearest->power - power)))
      nearest = &r;
  }
  // The last first_df at or below the look's (the first row's below every row).
  double df = kCalibrationRows[0].first_df;
  bool first = true;
  for (const CalibrationRow& r : kCalibrationRows)
    if (r.alpha == nearest->alpha && r.power == nearest->power &&
        (first || r.first_df <= first_df)) {
      df = r.first_df;
      first = false;
    }
  // Of that df's rows (short before long), the first whose below_ratio the look is under.
  const CalibrationRow* row = nullptr;
  for (const CalibrationRow& r : kCalibrationRows)
    if (r.alpha == nearest->alpha && r.power == nearest->power && r.first_df == df &&
        row == nullptr && (needed_ratio < r.level.below_ratio || r.level.below_ratio == kLong))
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
