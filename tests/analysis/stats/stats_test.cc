// Reference values were computed independently with mpmath at 30 digits
// (python3): means and variances directly, and Welch p-values two ways that
// agree to 1e-27 — numerical integration of the Student t density from |t|
// to infinity, and the regularized incomplete beta I_{df/(df+t^2)}(df/2, 1/2).
#include "analysis/stats/stats.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "tests/support/hackbench_samples.h"

using namespace schedlab::stats;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

using schedlab::test::kHackbenchBase;
using schedlab::test::kHackbenchBatch;

TEST_CASE("amean, hmean, gmean of positive samples", "[stats]") {
  CHECK_THAT(amean(kHackbenchBase), WithinRel(0.43, 1e-12));
  CHECK_THAT(*hmean(kHackbenchBase), WithinRel(0.429923992552269420824, 1e-12));
  CHECK_THAT(*gmean(kHackbenchBase), WithinRel(0.429961796323809611150, 1e-12));
  CHECK_THAT(*hmean(kHackbenchBatch), WithinRel(0.441969229640730013149, 1e-12));
  const std::vector<double> rates{100, 110, 105};
  CHECK_THAT(*hmean(rates), WithinRel(104.841149773071104387, 1e-12));
}

TEST_CASE("hmean and gmean need positive data", "[stats]") {
  const std::vector<double> with_zero{1, 0, 2};
  const std::vector<double> with_negative{1, -2, 3};
  CHECK_FALSE(hmean(with_zero));
  CHECK_FALSE(gmean(with_zero));
  CHECK_FALSE(hmean(with_negative));
  CHECK_FALSE(gmean(with_negative));
  CHECK_FALSE(hmean(std::vector<double>{}));
  CHECK_FALSE(gmean(std::vector<double>{}));
}

TEST_CASE("median of odd and even counts", "[stats]") {
  CHECK(median(std::vector<double>{3, 1, 2}) == 2);
  CHECK(median(std::vector<double>{4, 1, 3, 2}) == 2.5);
  CHECK(median(std::vector<double>{7}) == 7);
}

TEST_CASE("amean and median of nothing are errors, not NaN", "[stats]") {
  CHECK_THROWS_AS(amean(std::vector<double>{}), std::domain_error);
  CHECK_THROWS_AS(median(std::vector<double>{}), std::domain_error);
}

TEST_CASE("stddev is the n-1 sample standard deviation", "[stats]") {
  // Population sd of this set is exactly 2; the sample sd is 2*sqrt(8/7).
  CHECK_THAT(*stddev(std::vector<double>{2, 4, 4, 4, 5, 5, 7, 9}),
             WithinRel(2.13808993529939507748, 1e-12));
  CHECK_THAT(*stddev(kHackbenchBase), WithinRel(0.00644204936336256846901, 1e-10));
  CHECK_FALSE(stddev(std::vector<double>{1.5}));
  CHECK(*stddev(std::vector<double>{3, 3, 3}) == 0);
}

TEST_CASE("Welch t-test against independent values", "[stats]") {
  const auto r = welch_t_test(kHackbenchBase, kHackbenchBatch);
  REQUIRE(r);
  CHECK_THAT(r->t, WithinRel(-3.50823207722811685888, 1e-9));
  CHECK_THAT(r->df, WithinRel(6.80621504039776258546, 1e-9));
  CHECK_THAT(r->p_value, WithinRel(0.0103416877583205046211, 1e-8));

  // Swapping the sides flips t only.
  const auto s = welch_t_test(kHackbenchBatch, kHackbenchBase);
  REQUIRE(s);
  CHECK_THAT(s->t, WithinRel(3.50823207722811685888, 1e-9));
  CHECK_THAT(s->p_value, WithinRel(r->p_value, 1e-12));

  // Unequal sizes and variances.
  const std::vector<double> a{10.1, 9.8, 10.4, 10.0};
  const std::vector<double> b{11.2, 10.9, 11.5, 11.0, 11.3, 10.7};
  const auto u = welch_t_test(a, b);
  REQUIRE(u);
  CHECK_THAT(u->t, WithinRel(-5.95517716118479762077, 1e-9));
  CHECK_THAT(u->df, WithinRel(7.27847991914096401754, 1e-9));
  CHECK_THAT(u->p_value, WithinRel(0.000489154873534811955740, 1e-7));
}

TEST_CASE("Welch t-test with one constant side is still defined", "[stats]") {
  // df reduces to nb - 1 = 3 exactly.
  const auto r = welch_t_test(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3, 4});
  REQUIRE(r);
  CHECK_THAT(r->t, WithinRel(-2.32379000772445013111, 1e-9));
  CHECK_THAT(r->df, WithinAbs(3.0, 1e-12));
  CHECK_THAT(r->p_value, WithinRel(0.102728078858399008386, 1e-8));
}

TEST_CASE("Welch t-test is undefined for n < 2 or no variance at all", "[stats]") {
  CHECK_FALSE(welch_t_test(std::vector<double>{0.43}, kHackbenchBatch));
  CHECK_FALSE(welch_t_test(kHackbenchBase, std::vector<double>{0.44}));
  CHECK_FALSE(welch_t_test(std::vector<double>{}, kHackbenchBatch));
  CHECK_FALSE(welch_t_test(std::vector<double>{2, 2, 2}, std::vector<double>{5, 5}));
  // Identical samples on both sides: no variance, so no test, not p = 1.
  CHECK_FALSE(welch_t_test(std::vector<double>{1, 1}, std::vector<double>{1, 1}));
}

TEST_CASE("Welch-Satterthwaite degrees of freedom", "[stats]") {
  // Squared standard errors 1 (n = 5) and 4 (n = 10): (1 + 4)^2 / (1/4 + 16/9) = 900/73.
  CHECK_THAT(welch_df(1, 5, 4, 10), WithinRel(900.0 / 73, 1e-14));
  // One side without variance: the other side's n - 1.
  CHECK_THAT(welch_df(0, 3, 2.5, 4), WithinRel(3.0, 1e-14));
}
