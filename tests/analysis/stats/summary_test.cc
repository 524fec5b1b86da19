// summarize(): n = 1 and undefined means say n/a with a reason, never NaN.
#include "analysis/stats/summary.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace schedlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

TEST_CASE("summary of a group: every statistic and the t interval of the amean", "[summary]") {
  const std::vector<double> x{0.430, 0.425, 0.441, 0.428, 0.426};
  const Summary s = summarize(x, Centre::kAmean);
  CHECK(s.n == 5);
  CHECK(*s.min.value == 0.425);
  CHECK(*s.max.value == 0.441);
  CHECK(*s.median.value == 0.428);
  CHECK_THAT(*s.amean.value, WithinRel(0.43, 1e-12));
  CHECK_THAT(*s.hmean.value, WithinRel(0.429923992552269420824, 1e-12));
  CHECK_THAT(*s.gmean.value, WithinRel(0.429961796323809611150, 1e-12));
  CHECK_THAT(*s.stddev.value, WithinRel(0.00644204936336256847, 1e-12));
  CHECK_THAT(*s.coefvar.value, WithinRel(0.00644204936336256847 / 0.43 * 100, 1e-12));
  CHECK(*s.centre_value.value == *s.amean.value);
  REQUIRE(s.ci.ci);
  CHECK(s.ci.method == "student-t");
  CHECK(s.ci.level == 0.95);
  // R: t.test(x)$conf.int
  CHECK_THAT(s.ci.ci->low, WithinRel(0.42200113923086119, 1e-9));
  CHECK_THAT(s.ci.ci->high, WithinRel(0.43799886076913869, 1e-9));
}

TEST_CASE("the confidence level is configurable", "[summary]") {
  const std::vector<double> x{0.430, 0.425, 0.441, 0.428, 0.426};
  const auto wide = summarize(x, Centre::kAmean, 0.99).ci.ci;
  const auto narrow = summarize(x, Centre::kAmean, 0.80).ci.ci;
  REQUIRE(wide);
  REQUIRE(narrow);
  CHECK(wide->low < narrow->low);
  CHECK(wide->high > narrow->high);
}

TEST_CASE("one sample: spread and interval are n/a with a reason, never NaN", "[summary]") {
  const Summary s = summarize(std::vector<double>{7.5}, Centre::kAmean);
  CHECK(s.n == 1);
  CHECK(*s.amean.value == 7.5);
  CHECK(*s.median.value == 7.5);
  CHECK_FALSE(s.stddev);
  CHECK(s.stddev.reason == "one sample: no spread");
  CHECK_FALSE(s.coefvar);
  CHECK_FALSE(s.ci.ci);
  CHECK(s.ci.reason == "one sample: no interval");
}

TEST_CASE("hmean and gmean of data with a zero or a negative are not defined, with the reason",
          "[summary]") {
  const Summary z = summarize(std::vector<double>{1.2, 0, 0.8}, Centre::kHmean);
  CHECK_FALSE(z.hmean);
  CHECK(z.hmean.reason == "hmean is not defined: sample 2 is 0 (needs every sample > 0)");
  CHECK_FALSE(z.gmean);
  CHECK_THAT(z.gmean.reason, Contains("gmean is not defined: sample 2 is 0"));
  CHECK_FALSE(z.centre_value);
  CHECK_FALSE(z.ci.ci);
  CHECK_THAT(z.ci.reason, Contains("hmean is not defined"));
  // The amean stays defined.
  CHECK_THAT(*z.amean.value, WithinRel(2.0 / 3, 1e-12));

  const Summary n = summarize(std::vector<double>{3, -1, 2}, Centre::kGmean);
  CHECK(n.gmean.reason == "gmean is not defined: sample 2 is -1 (needs every sample > 0)");
}

TEST_CASE("no samples: every statistic says so", "[summary]") {
  const Summary s = summarize(std::vector<double>{}, Centre::kMedian);
  CHECK(s.n == 0);
  for (const Stat* st : {&s.min, &s.max, &s.median, &s.amean, &s.hmean, &s.stddev, &s.coefvar})
    CHECK(st->reason == "no samples");
  CHECK_FALSE(s.ci.ci);
}

TEST_CASE("identical samples: zero spread, no interval rather than a point", "[summary]") {
  const Summary s = summarize(std::vector<double>{3, 3, 3}, Centre::kAmean);
  CHECK(*s.stddev.value == 0);
  CHECK(*s.coefvar.value == 0);
  CHECK_FALSE(s.ci.ci);
  CHECK(s.ci.reason == "all samples are equal: no spread");
}

TEST_CASE("median interval is distribution-free, and says when n is too small", "[summary]") {
  std::vector<double> x{5, 1, 4, 2, 3, 6};
  const Summary s = summarize(x, Centre::kMedian);
  REQUIRE(s.ci.ci);
  CHECK(s.ci.method == "order statistics");
  CHECK(s.ci.ci->low == 1);  // ranks 1 and 6: coverage 1 - 2/64 = 0.969
  CHECK(s.ci.ci->high == 6);
  x.pop_back();
  const Summary five = summarize(x, Centre::kMedian);
  CHECK_FALSE(five.ci.ci);
  CHECK(five.ci.reason == "5 samples are too few for a 95% distribution-free interval");
}

TEST_CASE("centres of samples", "[summary]") {
  CHECK_FALSE(centre_of(std::vector<double>{}, Centre::kAmean));
  CHECK(*centre_of(std::vector<double>{1, 3}, Centre::kMedian) == 2);
}
