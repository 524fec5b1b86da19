// The calibrated nominal level of a sequential A/B test that is not
// settled at its first look (sequential.h, SequentialDesign::settled_df):
// its looks follow a variance estimated from a few degrees of freedom, which
// brings the last look early when the variance is low and |t| high, so at
// the stated alpha its type I is above alpha (0.059-0.0765 at 0.05). It
// spends alpha x alpha_ratio instead, and plans its power at power +
// power_margin, both chosen by seeded simulation (bench_sequential through
// bench/calibrate_unsettled_alpha.sh) so that its type I is near 0.049 and
// its power near power + 0.005 (targets inside issue 43's goals, alpha + 2
// SE and power - 2 SE at 20,000 trials, with room for the simulation's
// error).
//
// What the error depends on is how well the first look knows the variance
// (its pooled degrees of freedom, 2n - 2) and how many looks follow it (the
// needed n over the first look's, from the CV over min_effect): at a stated
// alpha and power the rows are by the first look's degrees of freedom and
// could be, within them, by how many looks follow: the first look's needed
// n over its n (a short test, below a row's `below_ratio`, has few looks
// after its first; a long one many: about 3 and 10 with CV 2% and 4% and
// min 3). The table has no short row: measured, short rows held type I at
// CV 2% and 4% but broke it at CV 3%, where the ratio sends the tests whose
// first variance is low (and |t| high) to the short level
// (sequential_calibration.cc, analysis/README.md). Each row's figures are
// the worst of CV 2% and 4% at min_effect 3% (CV over min_effect: only
// that ratio matters, not the two apart) with normal and log-normal noise.
// A first look at 3 or 4 a side (4 or 6 degrees of freedom) takes the row
// measured with min 3, one at 5 or 6 a side the row of min 5.
#pragma once

#include <limits>

namespace schedlab {

struct UnsettledCalibration {
  double alpha_ratio = 1;   // the bounds spend alpha x this
  double power_margin = 0;  // the power is planned at power + this
  // Measured at this alpha and power (and a first look of 4 degrees of
  // freedom or more); false: the row of the nearest calibrated alpha and
  // power, whose type I and power at this one nobody measured.
  bool calibrated = false;
  double alpha = 0, power = 0;  // the row's
  // The row serves a first look whose needed n (planned at the long row's
  // level) is below this many times its n: +inf for the long row.
  double below_ratio = std::numeric_limits<double>::infinity();
};

// The row for a design's alpha and power and a first look with first_df
// pooled degrees of freedom (below settled_df) whose needed n, planned at
// the long row's level, is needed_ratio times its n (+inf: the long row).
UnsettledCalibration unsettled_calibration(
    double alpha, double power, double first_df,
    double needed_ratio = std::numeric_limits<double>::infinity());
// The largest power margin any first look of such a design plans with
// (power plus it must stay below 1).
double unsettled_max_margin(double alpha, double power);

}  // namespace schedlab
