// Bisect's repeated looks: alpha spent across a candidate's batches keeps
// a test's false "differs" at alpha over all looks (seeded Monte Carlo,
// tolerance three standard errors), where testing every look at alpha does
// not; the levels, the last look and the statement of error rates.
#include "analysis/sequential/bisect_looks.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis/sequential/sequential_simulation.h"

using namespace schedlab;

TEST_CASE("levels grow look by look and the cap spends all of alpha", "[bisect_looks]") {
  RepeatedLooks looks(0.05, 10, 30);
  const auto a = looks.next(10), b = looks.next(20), c = looks.next(30);
  CHECK(a.nominal_alpha < b.nominal_alpha);
  CHECK(b.nominal_alpha < c.nominal_alpha);
  CHECK(c.nominal_alpha < 0.05);
  CHECK(c.last);
  CHECK(c.alpha_spent == 0.05);
  CHECK(a.fraction == Approx((0.1 + 1.0 / 30) / (0.1 + 0.1)));
  CHECK_THROWS_AS(looks.next(40), std::logic_error);
  RepeatedLooks other(0.05, 10, 30);
  other.next(10);
  CHECK_THROWS_WITH(other.next(10), "a look needs more samples than the last one (10), not 10");
  CHECK_THROWS_WITH(RepeatedLooks(1.5, 10, 30), "alpha must be in (0, 1), not 1.5");
}

namespace {

// How the simulated candidate's looks are tested.
enum class Looks {
  kFixedAlpha,      // each look at alpha; a reference of 10, measured first
  kSpent,           // alpha spent across the looks; the same reference
  kSpentInWindows,  // alpha spent; the reference grows by a batch beside each
                    // candidate batch, as bisect's windows do
};

// The share of candidates drawn like the reference that some look calls
// different, batches of 5 up to 30.
double false_differs(const std::string& test, Looks mode, std::uint64_t seed) {
  constexpr int kTrials = 2000;
  const bool windows = mode == Looks::kSpentInWindows;
  SeededNormal rng(seed);
  int wrong = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> ref, cand;
    if (!windows)
      for (int i = 0; i < 10; ++i) ref.push_back(100 + 5 * rng());
    RepeatedLooks looks(0.05, windows ? std::size_t{30} : ref.size(), 30);
    for (int batch = 0; batch < 6; ++batch) {
      if (windows)
        for (int i = 0; i < 5; ++i) ref.push_back(100 + 5 * rng());
      for (int i = 0; i < 5; ++i) cand.push_back(100 + 5 * rng());
      const double level = mode == Looks::kFixedAlpha ? 0.05
                           : windows ? looks.next(cand.size(), ref.size()).nominal_alpha
                                     : looks.next(cand.size()).nominal_alpha;
      const PValue p = p_value(*test_from_name(test), ref, cand);
      if (p.p && *p.p < level) {
        ++wrong;
        break;
      }
    }
  }
  return static_cast<double>(wrong) / kTrials;
}

}  // namespace

TEST_CASE("spent alpha keeps a false differs at alpha over six looks; a fixed alpha does not",
          "[bisect_looks][simulation]") {
  const double tolerance = 3 * std::sqrt(0.05 * 0.95 / 2000);
  for (const std::string test : {"welch", "mwu"}) {
    INFO(test);
    const double spent = false_differs(test, Looks::kSpent, 31);
    const double fixed = false_differs(test, Looks::kFixedAlpha, 31);
    INFO("spent " << spent << ", fixed " << fixed);
    CHECK(spent <= 0.05 + tolerance);
    CHECK(fixed > 0.05 + tolerance);
  }
}

TEST_CASE("a sequential verdict states the error rates it held", "[bisect_looks]") {
  SeededNormal rng(41);
  std::vector<double> good, bad, cand;
  for (int i = 0; i < 10; ++i) good.push_back(100 + 2 * rng());
  for (int i = 0; i < 10; ++i) bad.push_back(130 + 2 * rng());
  VerdictOptions o;
  SequentialJudge judge(o, good.size(), bad.size(), 15);
  for (int i = 0; i < 5; ++i) cand.push_back(130 + 2 * rng());
  auto v = judge.judge(good, bad, cand);
  CHECK(v.result.verdict == Verdict::kBad);
  CHECK(v.vs_good.look == 1);
  CHECK(v.vs_good.nominal_alpha < 0.05);
  CHECK(v.error_rates.find("at most 5% of GOOD verdicts on a bad candidate and of BAD verdicts "
                           "on a good one, over 1 looks") == 0);
  // A candidate halfway: UNKNOWN until the cap, then the nearer median,
  // which holds no error rate.
  SequentialJudge halfway(o, good.size(), bad.size(), 10);
  std::vector<double> mid;
  for (int i = 0; i < 5; ++i) mid.push_back(112 + 12 * rng());
  auto first = halfway.judge(good, bad, mid);
  for (int i = 0; i < 5; ++i) mid.push_back(112 + 12 * rng());
  auto last = halfway.judge(good, bad, mid);
  CHECK(last.vs_good.last);
  if (last.result.decided_by == "nearest-median")
    CHECK(last.error_rates.find("no error rate holds") != std::string::npos);
  CHECK(first.vs_good.alpha_spent < last.vs_good.alpha_spent);
}

TEST_CASE("references that grow with the candidate (bisect's windows) keep their looks' information right",
          "[bisect_looks]") {
  // Equal growth: the information is n / 2 at every look, so the fraction
  // is n / max, not what a fixed reference of max samples would say.
  RepeatedLooks looks(0.05, 30, 30);
  const auto a = looks.next(10, 10), b = looks.next(20, 20), c = looks.next(30, 30);
  CHECK(a.fraction == Approx(10.0 / 30));
  CHECK(b.fraction == Approx(20.0 / 30));
  CHECK(c.last);
  CHECK(c.alpha_spent == 0.05);
  // A fixed reference of 30 would have given the first look 0.5 of the information.
  CHECK(RepeatedLooks(0.05, 30, 30).next(10).fraction == Approx((1.0 / 30 + 1.0 / 30) / (1.0 / 30 + 1.0 / 10)));
  RepeatedLooks same(0.05, 30, 30);
  same.next(10, 10);
  CHECK_THROWS_WITH(same.next(11, 9),
                    "a look needs more information than the last one (11 candidate and 9 reference samples)");
}

TEST_CASE("spent alpha holds over six looks when the reference grows with each batch",
          "[bisect_looks][simulation]") {
  const double tolerance = 3 * std::sqrt(0.05 * 0.95 / 2000);
  for (const std::string test : {"welch", "mwu"}) {
    INFO(test);
    const double spent = false_differs(test, Looks::kSpentInWindows, 37);
    INFO("spent " << spent);
    CHECK(spent <= 0.05 + tolerance);
  }
}
