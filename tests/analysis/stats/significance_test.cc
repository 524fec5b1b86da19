// pct, its interval and the p-value of one column against the baseline,
// and the A/A simulation: with both columns drawn from one distribution,
// `*` must fire at the stated rate alpha, not more.
#include "analysis/stats/significance.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "analysis/compare/compare.h"
#include "tests/support/hackbench_samples.h"

using namespace schedlab;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

using schedlab::test::kHackbenchBase;
using schedlab::test::kHackbenchBatch;

namespace {

// Box-Muller over mt19937_64, whose sequence the standard fixes, so the
// simulation draws the same numbers everywhere (std::normal_distribution's
// algorithm is left to the library).
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : rng_(seed) {}
  double operator()(double mean, double sd) {
    const double u1 = (static_cast<double>(rng_() >> 11) + 1) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    return mean + sd * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
  }

 private:
  std::mt19937_64 rng_;
};

// The share of 1000 A/A comparisons (10 samples a side) marked with `*`.
double false_positive_rate(const CompareOptions& o, std::uint64_t seed) {
  Normal draw(seed);
  const MetricInfo m{"w", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4};
  int marked = 0;
  constexpr int kTrials = 1000;
  for (int t = 0; t < kTrials; ++t) {
    std::vector<double> a(10), b(10);
    for (auto& v : a) v = draw(100, 5);
    for (auto& v : b) v = draw(100, 5);
    const Comparison c = compare_samples({{"a", a}, {"b", b}}, m, o);
    marked += c.blocks[0].rows[0].cells[1].significant;
  }
  return static_cast<double>(marked) / kTrials;
}

}  // namespace

TEST_CASE("A/A: Welch's * fires at alpha +- 0.02 over 1000 trials", "[significance][aa]") {
  CompareOptions o;
  const double rate = false_positive_rate(o, 20240501);
  INFO("false-positive rate " << rate);
  CHECK_THAT(rate, WithinAbs(o.alpha, 0.02));
  o.alpha = 0.10;
  const double rate10 = false_positive_rate(o, 7);
  INFO("false-positive rate at alpha 0.10: " << rate10);
  CHECK_THAT(rate10, WithinAbs(0.10, 0.02));
}

TEST_CASE("A/A: Mann-Whitney's * fires at alpha +- 0.02 over 1000 trials", "[significance][aa]") {
  CompareOptions o;
  o.test = Test::kMwu;
  const double rate = false_positive_rate(o, 20240502);
  INFO("false-positive rate " << rate);
  CHECK_THAT(rate, WithinAbs(o.alpha, 0.02));
}

TEST_CASE("A/A: mmtests' marker is far more conservative than its nominal 5%",
          "[significance][aa]") {
  CompareOptions o;
  o.mmtests = true;
  CHECK(false_positive_rate(o, 20240503) < 0.01);
}

TEST_CASE("pct: positive is better in both directions", "[significance]") {
  CHECK_THAT(*pct_better(false, 100.0, 90.0), WithinRel(10.0, 1e-12));
  CHECK_THAT(*pct_better(true, 100.0, 90.0), WithinRel(-10.0, 1e-12));
  CHECK_THAT(*pct_better(true, -100.0, -90.0), WithinRel(10.0, 1e-12));
  CHECK_FALSE(pct_better(true, 0.0, 5.0));
  CHECK_FALSE(pct_better(true, std::nullopt, 5.0));
}

TEST_CASE("p-values: the chosen test, or why there is none", "[significance]") {
  CHECK_THAT(*p_value(Test::kWelch, kHackbenchBase, kHackbenchBatch).p, WithinRel(0.0103416877583205046, 1e-8));
  // R: wilcox.test(kHackbenchBase, kHackbenchBatch)$p.value, exact.
  CHECK_THAT(*p_value(Test::kMwu, kHackbenchBase, kHackbenchBatch).p, WithinRel(0.031746031746031744, 1e-9));
  const auto one = p_value(Test::kWelch, std::vector<double>{1}, kHackbenchBatch);
  CHECK_FALSE(one.p);
  CHECK(one.reason == "needs 2 samples per side");
  const auto flat = p_value(Test::kWelch, std::vector<double>{2, 2}, std::vector<double>{3, 3});
  CHECK(flat.reason == "no variance on either side");
  const auto same = p_value(Test::kMwu, std::vector<double>{1, 1}, std::vector<double>{1, 1});
  CHECK(same.reason == "every value is the same");
  CHECK(test_from_name("mwu") == Test::kMwu);
  CHECK_FALSE(test_from_name("ttest"));
}

TEST_CASE("interval of the % change contains the change and follows the centre",
          "[significance]") {
  const std::vector<double> c6b{27000, 28100, 27500, 27900, 27600, 28300};
  const std::vector<double> c6p{34000, 34300, 33800, 34500, 34100, 34000};
  for (Centre c : {Centre::kAmean, Centre::kHmean, Centre::kGmean}) {
    INFO(to_string(c));
    const auto ci = pct_interval(c, true, c6b, c6p, 0.95);
    REQUIRE(ci.ci);
    const double pct = *pct_better(true, centre_of(c6b, c), centre_of(c6p, c));
    CHECK(ci.ci->low < pct);
    CHECK(pct < ci.ci->high);
    // Lower is better mirrors it.
    const auto lower = pct_interval(c, false, c6b, c6p, 0.95);
    REQUIRE(lower.ci);
    CHECK(lower.ci->high < 0);
  }
  // hmean: Fieller on the reciprocals, mapped back (computed in R:
  // ratio of mean(1/b) over mean(1/a), then inverted).
  const auto h = pct_interval(Centre::kHmean, true, c6b, c6p, 0.95);
  CHECK_THAT(h.ci->low, WithinRel(20.796017692227874, 1e-9));
  CHECK_THAT(h.ci->high, WithinRel(25.298202892204724, 1e-9));
  CHECK(pct_interval(Centre::kMedian, true, c6b, c6p, 0.95).reason ==
        "no interval for a change of medians");
  CHECK(pct_interval(Centre::kAmean, true, std::vector<double>{1}, c6p, 0.95).reason ==
        "needs 2 samples per side");
  CHECK(pct_interval(Centre::kHmean, true, std::vector<double>{0, 1}, c6p, 0.95).reason ==
        "needs every sample > 0");
  // A baseline whose mean is not clearly above 0: Fieller's set is unbounded.
  const auto wild = pct_interval(Centre::kAmean, true, std::vector<double>{-5, 6},
                                 std::vector<double>{1, 2}, 0.95);
  CHECK_FALSE(wild.ci);
}

// Samples at the edge of the sample range (base/sample_range.h): squares
// past a double's range on the way (Welch's degrees of freedom, Fieller's
// discriminant) once made Boost throw "Degrees of freedom argument is
// -nan"; the answers are those of the same data scaled down.
TEST_CASE("significance: samples near 1e150 give the answers of the same data scaled (issue 44)",
          "[significance]") {
  const std::vector<double> base{1e150, 0.9e150, 0.95e150, 0.97e150};
  const std::vector<double> x{0.8e150, 0.85e150, 0.82e150, 0.9e150};
  std::vector<double> base1, x1;
  for (double v : base) base1.push_back(v / 1e150);
  for (double v : x) x1.push_back(v / 1e150);
  for (const Test t : {Test::kWelch, Test::kMwu}) {
    const PValue big = p_value(t, base, x), small = p_value(t, base1, x1);
    REQUIRE(big.p);
    CHECK(*big.p == Approx(*small.p).epsilon(1e-9));
  }
  for (const Centre c : {Centre::kAmean, Centre::kHmean, Centre::kGmean}) {
    INFO(to_string(c));
    const PctInterval big = pct_interval(c, false, base, x, 0.95);
    const PctInterval small = pct_interval(c, false, base1, x1, 0.95);
    REQUIRE(big.ci);
    CHECK(big.ci->low == Approx(small.ci->low).epsilon(1e-9));
    CHECK(big.ci->high == Approx(small.ci->high).epsilon(1e-9));
  }
  const Summary s = summarize(base, Centre::kAmean);
  REQUIRE(s.stddev);
  CHECK(*s.stddev.value == Approx(*summarize(base1, Centre::kAmean).stddev.value * 1e150));
  CHECK(s.ci.ci);
}

TEST_CASE("a statistic that is not finite is n/a with a reason, never a number (issue 44)",
          "[significance]") {
  const Stat inf = Stat::of(std::numeric_limits<double>::infinity());
  CHECK_FALSE(inf);
  CHECK(inf.reason == "not finite: the computation overflows a double's range");
  CHECK_FALSE(Stat::of(std::optional<double>(std::nan("")), "unused"));
}
