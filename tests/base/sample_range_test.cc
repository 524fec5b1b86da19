// The one range every entry holds samples to (base/sample_range.h).
#include "base/sample_range.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace schedlab;

TEST_CASE("sample range: measurements pass, overflowing and non-finite values say why") {
  for (double ok : {0.0, -0.0, 1.0, -3.5, 1e150, -1e150, 1e-150, -1e-150, 4.2e9})
    CHECK(sample_in_range(ok));
  CHECK(sample_out_of_range(std::numeric_limits<double>::infinity()) == "inf is not finite");
  CHECK(sample_out_of_range(-std::numeric_limits<double>::infinity()) == "-inf is not finite");
  CHECK(sample_out_of_range(std::nan("")) == "nan is not finite");
  CHECK(sample_out_of_range(1e308) == "1e+308 is outside +-1e+150");
  CHECK(sample_out_of_range(-2e150) == "-2e+150 is outside +-1e+150");
  CHECK(sample_out_of_range(1e-300) == "1e-300 is nearer 0 than 1e-150 (and not 0)");
  CHECK(sample_out_of_range(std::numeric_limits<double>::denorm_min()));
}

TEST_CASE("count range: a count is never negative, -0 included; else the sample range") {
  CHECK_FALSE(count_out_of_range(0));
  CHECK_FALSE(count_out_of_range(394));
  CHECK(count_out_of_range(-294) == "-294 is negative: no count is");
  CHECK(count_out_of_range(-0.0) == "-0 is negative: no count is");
  CHECK(count_out_of_range(1e308) == "1e+308 is outside +-1e+150");
  CHECK(count_out_of_range(std::nan("")) == "nan is not finite");
}

TEST_CASE("share range: 0 to 100 percent, a rounding past 100 allowed (hostile12)") {
  for (double ok : {0.0, 0.1, 50.0, 100.0, 100.00000000000001}) CHECK_FALSE(share_out_of_range(ok));
  CHECK(share_out_of_range(500) == "500 is outside 0-100: no share is");
  CHECK(share_out_of_range(-50) == "-50 is outside 0-100: no share is");
  CHECK(share_out_of_range(100.001) == "100.001 is outside 0-100: no share is");
  CHECK(share_out_of_range(std::nan("")) == "nan is not finite");
}

TEST_CASE("sample range: sums of squares and reciprocals of samples at the bounds stay finite") {
  // The comment's promise: 4e7 samples at the bound, squared and summed.
  const double big = 2 * kSampleMax;
  CHECK(std::isfinite(4e7 * big * big));
  CHECK(std::isfinite(4e7 * (1 / kSampleMinNonZero) * (1 / kSampleMinNonZero) * 4));
}
