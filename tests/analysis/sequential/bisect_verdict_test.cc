// Bisect verdicts: a candidate against the good and the bad reference.
#include "analysis/sequential/bisect_verdict.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace schedlab;

namespace {
// No ties, so Mann-Whitney is exact.
const std::vector<double> kGood = {1.004, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 0.996};
const std::vector<double> kBad = {1.204, 1.22, 1.18, 1.21, 1.19, 1.23, 1.17, 1.196};
}  // namespace

TEST_CASE("a candidate like the good reference is GOOD, like the bad one BAD") {
  const std::vector<double> like_good = {1.01, 0.99, 1.00, 1.02, 0.98, 1.00, 1.01, 0.99};
  const std::vector<double> like_bad = {1.21, 1.19, 1.20, 1.22, 1.18, 1.20, 1.21, 1.19};
  for (const char* test : {"mwu", "welch"}) {
    const VerdictOptions o{.test = test, .alpha = 0.05, .centre = Centre::kAmean};
    const auto g = judge(kGood, kBad, like_good, o);
    CHECK(g.verdict == Verdict::kGood);
    CHECK(g.decided_by == "test");
    REQUIRE(g.vs_good.p);
    REQUIRE(g.vs_bad.p);
    CHECK(*g.vs_good.p > 0.05);
    CHECK(*g.vs_bad.p < 0.05);
    CHECK(*g.centre == Approx(1.0));
    const auto b = judge(kGood, kBad, like_bad, o);
    CHECK(b.verdict == Verdict::kBad);
    CHECK(*b.vs_good.p < 0.05);
  }
  // Exact Mann-Whitney of 8 against 8 fully separated: 2 / C(16, 8).
  CHECK(*judge(kGood, kBad, kBad, {}).vs_good.p == Approx(2.0 / 12870));
}

TEST_CASE("a candidate half way, or too few samples, is UNKNOWN") {
  const std::vector<double> middle = {1.10, 1.11, 1.09, 1.10, 1.12, 1.08, 1.10, 1.11};
  const auto m = judge(kGood, kBad, middle, {});
  CHECK(m.verdict == Verdict::kUnknown);  // differs from both
  CHECK(m.decided_by.empty());
  const std::vector<double> one = {1.0};
  const auto few = judge(kGood, kBad, one, {.test = "welch"});
  CHECK(few.verdict == Verdict::kUnknown);  // no p-value at n = 1
  CHECK_FALSE(few.vs_good.p);
  CHECK_FALSE(few.vs_good.reason.empty());
}

TEST_CASE("at the cap an UNKNOWN candidate goes to the nearer median") {
  const std::vector<double> nearer_bad = {1.14, 1.15, 1.13, 1.14, 1.16, 1.12, 1.14, 1.15};
  const auto r = decide_at_cap(judge(kGood, kBad, nearer_bad, {}));
  CHECK(r.verdict == Verdict::kBad);
  CHECK(r.decided_by == "nearest-median");
  const std::vector<double> nearer_good = {1.06, 1.05, 1.07, 1.06, 1.04, 1.08, 1.06, 1.05};
  CHECK(decide_at_cap(judge(kGood, kBad, nearer_good, {})).verdict == Verdict::kGood);
  // A decided verdict stays as it is.
  const auto g = decide_at_cap(judge(kGood, kBad, kGood, {}));
  CHECK(g.verdict == Verdict::kGood);
  CHECK(g.decided_by == "test");
  // An exact tie stays UNKNOWN (the driver skips the candidate).
  const std::vector<double> tie = {2, 2, 2};  // exactly between (binary fractions)
  const std::vector<double> g2 = {1, 1}, b2 = {3, 3};
  CHECK(decide_at_cap(judge(g2, b2, tie, {})).verdict == Verdict::kUnknown);
}

TEST_CASE("a test verdict against the nearer median waits for more samples") {
  // The shape of a CI failure under TCG: good 0.146, bad 0.484, and a
  // candidate without the regression with one slow-mode run. The tests
  // alone say "differs from good (p = 2/252), not from bad (U = 5)": BAD.
  const std::vector<double> good = {0.140, 0.150, 0.145, 0.148, 0.142};
  const std::vector<double> bad = {0.470, 0.490, 0.480, 0.500, 0.485};
  const std::vector<double> candidate = {0.160, 0.170, 0.180, 0.200, 0.600};
  const auto r = judge(good, bad, candidate, {});
  REQUIRE(r.vs_good.p);
  REQUIRE(r.vs_bad.p);
  CHECK(*r.vs_good.p == Approx(2.0 / 252));
  CHECK(*r.vs_bad.p > 0.05);
  CHECK(r.verdict == Verdict::kUnknown);
  CHECK(r.decided_by.empty());
  const auto capped = decide_at_cap(r);
  CHECK(capped.verdict == Verdict::kGood);
  CHECK(capped.decided_by == "nearest-median");
}

TEST_CASE("references must differ, and the check says by how much") {
  const auto ok = check_references(kGood, kBad, {});
  CHECK(ok.differ);
  CHECK(ok.describe() == "good 1 (n=8), bad 1.2 (n=8), p = 0.0001554");
  const std::vector<double> same = {1.01, 0.99, 1.00, 1.02, 0.98, 1.00, 1.01, 0.99};
  const auto no = check_references(kGood, same, {});
  CHECK_FALSE(no.differ);
  REQUIRE(no.p.p);
  CHECK(*no.p.p > 0.05);
}

TEST_CASE("unknown test names are errors") {
  CHECK_THROWS_AS(check_verdict_options({.test = "ttest"}), std::invalid_argument);
  CHECK_NOTHROW(check_verdict_options({.test = "welch", .centre = Centre::kHmean}));
  CHECK(verdict_name(Verdict::kUnknown) == "UNKNOWN");
}

TEST_CASE("with a minimum effect a significant but small difference does not count") {
  const std::vector<double> drifted = {1.02, 1.03, 1.02, 1.04, 1.03, 1.02, 1.03, 1.04};
  // By the test alone the drift is a difference from good, so UNKNOWN.
  CHECK(judge(kGood, kBad, drifted, {}).verdict == Verdict::kUnknown);
  const VerdictOptions o{.min_effect_pct = 5};
  CHECK(judge(kGood, kBad, drifted, o).verdict == Verdict::kGood);
  CHECK_FALSE(check_references(kGood, drifted, o).differ);
  CHECK(check_references(kGood, kBad, o).differ);
}
