// The sequential A/B test: bad designs and samples refused with one line,
// looks and decisions on planted data, a resumed test recomputing the same
// bounds, the fixed n it is measured against (R's power.t.test), and a
// seeded Monte Carlo whose tolerances are three standard errors of its own
// estimates.
#include "analysis/sequential/sequential.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis/sequential/sequential_planning.h"
#include "analysis/sequential/sequential_simulation.h"
#include "analysis/sequential/stated_cv_level.h"
#include "analysis/stats/stats.h"

using namespace schedlab;
using Catch::Matchers::WithinAbs;

namespace {

const SequentialPlan& default_plan() {
  static const SequentialPlan plan = plan_sequential(SequentialDesign{});
  return plan;
}

// n draws a side, the variant's mean `change` percent above the baseline's.
struct Sides {
  std::vector<double> base, variant;
};
Sides planted(std::size_t n, double change, double cv, std::uint64_t seed) {
  SeededNormal rng(seed);
  Sides s;
  for (std::size_t i = 0; i < n; ++i) {
    s.base.push_back(draw(rng, Noise::kNormal, 100, cv / 100));
    s.variant.push_back(draw(rng, Noise::kNormal, 100 * (1 + change / 100), cv / 100));
  }
  return s;
}

// Runs the test round by round over `s` until it stops.
SequentialLook run(SequentialTest& test, const Sides& s) {
  SequentialLook l;
  for (std::size_t n = 1; n <= s.base.size() && !test.finished(); ++n)
    l = test.look(std::span(s.base).first(n), std::span(s.variant).first(n), n == s.base.size());
  return l;
}

double three_se(double p, std::size_t trials) {
  return 3 * std::sqrt(p * (1 - p) / static_cast<double>(trials));
}

}  // namespace

TEST_CASE("a bad design is one line naming the field", "[sequential]") {
  auto error = [](auto change) {
    SequentialDesign d;
    change(d);
    return design_error(d);
  };
  CHECK(error([](SequentialDesign&) {}).empty());
  CHECK(error([](SequentialDesign& d) { d.power = 1.5; }) ==
        "power must be in (0.5, 0.999999], not 1.5");
  CHECK(error([](SequentialDesign& d) { d.power = 0.4; }) ==
        "power must be in (0.5, 0.999999], not 0.4");
  CHECK(error([](SequentialDesign& d) { d.min_effect_pct = 0; }) ==
        "min_effect_pct must be in [0.01, 100), not 0");
  CHECK(error([](SequentialDesign& d) { d.min_effect_pct = -3; }) ==
        "min_effect_pct must be in [0.01, 100), not -3");
  CHECK(error([](SequentialDesign& d) { d.alpha = 0; }) == "alpha must be in [1e-06, 0.5), not 0");
  CHECK(error([](SequentialDesign& d) { d.min_n = 1; }) ==
        "min_n must be at least 2 (a variance), not 1");
  CHECK(error([](SequentialDesign& d) { d.planned_looks = 0; }) ==
        "planned_looks must be from 1 to 200, not 0");
  CHECK(error([](SequentialDesign& d) {
          d.spending = {gs::SpendingKind::kKimDeMets, 0.1};
        }) == "a Kim-DeMets spending's rho must be from 0.5 to 5, not 0.1");
  CHECK(error([](SequentialDesign& d) { d.variance_quantile = 1; }) ==
        "variance_quantile must be in [0, 1), not 1");
  CHECK(error([](SequentialDesign& d) { d.small_n_term = -1; }) ==
        "small_n_term must be from 0 to 10, not -1");
  CHECK(error([](SequentialDesign& d) { d.plan_cv_pct = -1; }) ==
        "plan_cv_pct must be from 0.01 to under 1000 (% of the mean), not -1");
  CHECK(error([](SequentialDesign& d) { d.plan_cv_pct = 0.001; }) ==
        "plan_cv_pct must be from 0.01 to under 1000 (% of the mean), not 0.001");
  SequentialDesign bad;
  bad.power = 1;
  CHECK_THROWS_WITH(plan_sequential(bad), "power must be in (0.5, 0.999999], not 1");
}

TEST_CASE("spending functions by name; each spends alpha by t = 1", "[sequential]") {
  for (const char* name : {"obf", "pocock", "kd(1.5)", "kd(3)"}) {
    const auto f = gs::parse_spending(name);
    REQUIRE(f);
    CHECK(gs::spending_name(*f) == name);
    CHECK(gs::spent(*f, 0.05, 0) == 0);
    CHECK(gs::spent(*f, 0.05, 1) == 0.05);
    CHECK(gs::spent(*f, 0.05, 0.5) < 0.05);
    CHECK(gs::spent(*f, 0.05, 0.5) > gs::spent(*f, 0.05, 0.4));
  }
  CHECK(gs::spending_name(*gs::parse_spending("kd")) == "kd(2)");
  // Pocock-type spends most early, O'Brien-Fleming-type least.
  CHECK(gs::spent(*gs::parse_spending("pocock"), 0.05, 0.2) >
        gs::spent(*gs::parse_spending("kd(1.5)"), 0.05, 0.2));
  CHECK(gs::spent(*gs::parse_spending("kd(3)"), 0.05, 0.2) > gs::obf_spent(0.05, 0.2));
  for (const char* bad : {"", "pocok", "kd()", "kd(x)", "kd(9)", "kd(1.5", "OBF"})
    CHECK_FALSE(gs::parse_spending(bad));
}

TEST_CASE("the plan keeps alpha and has its power at min_effect", "[sequential]") {
  const auto& p = default_plan();
  CHECK_THAT(p.fixed_eta, WithinAbs(1.959964 + 0.841621, 1e-5));
  CHECK_THAT(p.power, WithinAbs(0.8 + p.unsettled.front().calibration.power_margin, 1e-6));
  CHECK(p.type1 <= p.design.alpha + 1e-9);
  CHECK(p.same_at_min_effect <= p.same_error + 1e-9);
  CHECK(p.same_error == Approx(0.1));
  CHECK(p.inflation > 1);
  CHECK(p.efficacy.size() == 10);
  // The last planned look spends the rest of alpha: its bound is below a
  // fixed test's 1.96 only if earlier looks spent nothing, so above it.
  CHECK(p.efficacy.back() > 1.959964);
  CHECK(p.efficacy.front() > 6);
}

TEST_CASE("a median centre, a zero baseline and non-positive gmean samples are refused",
          "[sequential]") {
  CHECK_THROWS_WITH(
      SequentialTest(default_plan(), Centre::kMedian, true),
      "a sequential test compares means: the median has none (amean, gmean or hmean)");
  SequentialTest g(default_plan(), Centre::kGmean, true);
  const std::vector<double> ok{1, 2, 3}, bad{1, -2, 3};
  CHECK_THROWS_WITH(g.look(ok, bad), "gmean needs positive samples, not -2");
  SequentialTest a(default_plan(), Centre::kAmean, true);
  const std::vector<double> zero{-1, 0, 1}, x{1, 2, 3};
  CHECK_THROWS_WITH(a.look(zero, x), "the baseline's mean is 0: a change in % is undefined");
  const std::vector<double> inf{1, std::numeric_limits<double>::infinity(), 3};
  CHECK_THROWS_WITH(a.look(x, inf), "a sample is not a finite number");
}

TEST_CASE("no look before min_n; a 20% change is different at an early look", "[sequential]") {
  SequentialTest test(default_plan(), Centre::kAmean, false);  // lower is better
  const Sides s = planted(40, 20, 2, 11);
  const auto early = test.look(std::span(s.base).first(2), std::span(s.variant).first(2));
  CHECK_FALSE(early.analysed);
  CHECK(early.reason == "2 and 2 samples: the first look needs 3 a side");
  const SequentialLook l = run(test, s);
  REQUIRE(l.analysed);
  CHECK(l.decision == SequentialDecision::kDifferent);
  CHECK(test.finished());
  CHECK(l.n_base <= 6);
  CHECK(l.pct < -15);  // higher times: worse
  CHECK(l.p_value < 0.05);
  CHECK(std::fabs(l.z) >= l.efficacy_bound);
  CHECK_THAT(l.nominal_alpha, WithinAbs(std::erfc(l.efficacy_bound / std::sqrt(2.0)), 1e-12));
  const auto ci = test.adjusted_interval();
  CHECK(ci.pct.low < l.pct);
  CHECK(ci.pct.high > l.pct);
  CHECK(ci.pct.high < 0);  // the interval excludes no change, as the test did
  CHECK_THROWS_AS(test.look(s.base, s.variant), std::logic_error);
}

TEST_CASE("the last look spends all of alpha, and a resumed test has the same bounds",
          "[sequential]") {
  const Sides s = planted(30, 1, 5, 13);
  SequentialTest first(default_plan(), Centre::kAmean, true);
  std::vector<SequentialLook> looks;
  for (std::size_t n = 1; n <= 20; ++n) {
    auto l = first.look(std::span(s.base).first(n), std::span(s.variant).first(n));
    if (l.analysed) looks.push_back(l);
    if (first.finished()) break;
  }
  REQUIRE_FALSE(first.finished());
  REQUIRE(looks.size() >= 2);
  SequentialTest resumed(default_plan(), Centre::kAmean, true, first.looks());
  const auto a = first.look(std::span(s.base).first(25), std::span(s.variant).first(25), true);
  const auto b = resumed.look(std::span(s.base).first(25), std::span(s.variant).first(25), true);
  REQUIRE(a.analysed);
  CHECK(a.last);
  // All of alpha if the first look settled the test, else all of its nominal level.
  const SequentialTest::PastLook& first_look = first.looks().front();
  CHECK(a.alpha_spent ==
        Approx(first.needed_terms(first_look.n, first_look.needed_n).nominal_alpha));
  CHECK(a.efficacy_bound == b.efficacy_bound);
  CHECK(a.p_value == b.p_value);
  CHECK(a.decision == b.decision);
}

TEST_CASE("a first look with few looks after it takes the short level, found again on resume",
          "[sequential]") {
  // The table has no short row (sequential_calibration.cc): the one measured, from the design.
  SequentialDesign d;
  d.short_alpha_ratio = 0.82;
  d.short_power_margin = 0.045;
  d.short_below_ratio = 6;
  const SequentialPlan plan = plan_sequential(d);
  const UnsettledCalibration long4 = unsettled_calibration(0.05, 0.8, 4);
  // A short level plans no more than its long one: a resumed test, which
  // has only the needed n at its own level, reads which it took from it.
  REQUIRE(plan.unsettled_short.size() == plan.unsettled.size());
  for (std::size_t i = 0; i < plan.unsettled.size(); ++i)
    CHECK(plan.unsettled_short[i].eta <= plan.unsettled[i].eta);
  SequentialTest probe(plan, Centre::kAmean, true);
  const SequentialTest::NeededTerms long_terms = probe.needed_terms(3);
  // Per unit of eta^2, the variance that makes the long level's needed n at a first look at 3 a
  // side `needed`: below 6 x 3 the short level, from it the long one.
  const auto per_eta2 = [&](double needed) {
    return (needed - long_terms.small_n) / (long_terms.eta * long_terms.eta);
  };
  CHECK(probe.first_terms(3, per_eta2(17.9)).nominal_alpha == Approx(0.05 * 0.82));
  CHECK(probe.first_terms(3, per_eta2(18.1)).nominal_alpha == Approx(0.05 * long4.alpha_ratio));
  // The default design has no short level.
  SequentialTest plain(default_plan(), Centre::kAmean, true);
  CHECK(plain.first_terms(3, per_eta2(4)).nominal_alpha == Approx(0.05 * long4.alpha_ratio));
  // Through look(): CV 1% needs about 3 a side, so the first look (at 3) is short, and so is
  // the test resumed from its looks.
  const Sides s = planted(20, 0, 1, 29);
  SequentialTest first(plan, Centre::kAmean, true);
  const SequentialLook l1 = first.look(std::span(s.base).first(3), std::span(s.variant).first(3));
  REQUIRE(l1.analysed);
  REQUIRE(!first.finished());
  CHECK(l1.needed_n < 6 * 3);
  SequentialTest resumed(plan, Centre::kAmean, true, first.looks());
  const auto a = first.look(std::span(s.base).first(8), std::span(s.variant).first(8), true);
  const auto b = resumed.look(std::span(s.base).first(8), std::span(s.variant).first(8), true);
  CHECK(a.alpha_spent == Approx(0.05 * 0.82));
  CHECK(b.alpha_spent == a.alpha_spent);
  CHECK(b.efficacy_bound == a.efficacy_bound);
  CHECK(b.p_value == a.p_value);
}

TEST_CASE("the fixed n is R's power.t.test, rounded up", "[sequential][r]") {
  // power.t.test(delta = 3, sd = 2 | 5 | 10, power = 0.8)$n: 8.06, 44.59, 175.39.
  CHECK(fixed_n_for_power(0.05, 0.8, 3, 2) == 9);
  CHECK(fixed_n_for_power(0.05, 0.8, 3, 5) == 45);
  CHECK(fixed_n_for_power(0.05, 0.8, 3, 10) == 176);
}

TEST_CASE(
    "the fixed n at the bounds schedlab design takes: found in steps, not hours; no Boost "
    "error at a tiny CV",
    "[sequential][r]") {
  // power.t.test(delta = 0.01, sd = 4, power = 0.8)$n: 2511642.48 (a step
  // from n = 2 took hours: `schedlab design --cv 4 --min-effect 0.01`).
  CHECK(fixed_n_for_power(0.05, 0.8, 0.01, 4) == 2511643);
  // power.t.test(delta = 3, sd = 1e-5, power = 0.8)$n: 1.11, so the least
  // n with a variance; Boost's noncentral t failed ("itrunc ... can not be
  // represented") at --cv 1e-5.
  CHECK(fixed_n_for_power(0.05, 0.8, 3, 1e-5) == 2);
  CHECK(fixed_n_for_power(0.05, 0.8, 3, 1e-10) == 2);
  CHECK(t_test_power(0.05, 3e5, 2) == 1);
  // Past 10,000,000 a side the n is still found, not refused as if no n
  // reached the power (hostile9: "no fixed n reaches that power" at about
  // 1.6e11). The normal approximation plus its t correction,
  // 2 (z_0.975 + z_0.8)^2 (999 / 0.01)^2 + z_0.975^2 / 4, is 156663796476.16.
  CHECK(fixed_n_for_power(0.05, 0.8, 0.01, 999) == 156663796477);
  CHECK(fixed_n_exact(0.05, 0.8, 0.01, 999) == Approx(156663796476.16).epsilon(1e-12));
}

TEST_CASE("seeded Monte Carlo: alpha kept, power at min_effect, about the fixed n's iterations",
          "[sequential][simulation]") {
  constexpr std::size_t kTrials = 2000;
  const auto& plan = default_plan();
  SimulationSetting s;
  s.cv_pct = 5;
  s.trials = kTrials;
  s.seed = 20240536;
  const auto aa = simulate_sequential(plan, Centre::kAmean, s);
  const double type1 = static_cast<double>(aa.different) / kTrials;
  INFO("A/A: different " << type1 << ", same " << aa.same << " of " << kTrials << ", mean n "
                         << aa.mean_n);
  CHECK(type1 <= 0.05 + three_se(0.05, kTrials));
  // No change is called same about as often as the plan says (0.927 at the
  // level of a first look at 3 a side; at CV 5% most first looks come at 5
  // a side, whose calibrated level spends more of alpha, and some at 7 or
  // more and settle, planned at a smaller eta: 0.8955 of 2,000 here).
  const double same_h0 = static_cast<double>(aa.same) / kTrials;
  CHECK(same_h0 >= plan.same_at_no_change - 0.04);
  s.change_pct = 3;
  s.seed += 1;
  const auto ab = simulate_sequential(plan, Centre::kAmean, s);
  const double power = static_cast<double>(ab.different) / kTrials;
  const double same = static_cast<double>(ab.same) / kTrials;
  INFO("A/B 3%: different " << power << ", same " << same << ", mean n " << ab.mean_n);
  CHECK(power >= 0.8 - three_se(0.8, kTrials));
  CHECK(same <= plan.same_error + three_se(plan.same_error, kTrials));
  // A two-sided level-alpha test calls a rise a fall at most alpha / 2 of
  // the time (2 of 2000 here: a last look on a low variance estimate).
  CHECK(static_cast<double>(ab.different_wrong_way) / kTrials <= 0.025);
  // The needed n only grows, so the test runs about as long as a fixed one
  // at min_effect (bench_sequential measures it against its goals).
  const auto fixed = static_cast<double>(fixed_n_for_power(0.05, 0.8, 3, 5));
  CHECK(ab.mean_n < 1.1 * fixed);
  CHECK(aa.mean_n < 1.1 * fixed);
}

TEST_CASE(
    "the needed n follows each estimate by default; grow only grows it, frozen keeps the first",
    "[sequential]") {
  CHECK(SequentialDesign{}.replan == SequentialReplan::kFree);
  auto needed = [](SequentialReplan replan) {
    SequentialDesign d;
    d.replan = replan;
    SequentialTest test(plan_sequential(d), Centre::kAmean, true);
    std::vector<double> out;
    double n = 3;
    for (double estimate : {20.0, 10.0, 30.0}) {
      const auto s = test.schedule(n, estimate);
      out.push_back(s.at.needed_n);
      n = static_cast<double>(s.next_n);
    }
    return out;
  };
  CHECK(needed(SequentialReplan::kGrow) == std::vector<double>{20, 20, 30});
  CHECK(needed(SequentialReplan::kFree) == std::vector<double>{20, 10, 30});
  CHECK(needed(SequentialReplan::kFrozen) == std::vector<double>{20, 20, 20});
  CHECK(replan_name(SequentialReplan::kGrow) == "grow");
}

TEST_CASE("with free_from_df the needed n grows until a look has that many degrees of freedom",
          "[sequential]") {
  SequentialDesign d;
  d.replan = SequentialReplan::kGrow;
  d.free_from_df = 8;
  SequentialTest test(plan_sequential(d), Centre::kAmean, true);
  const auto first = test.schedule(3, 20);  // 4 degrees of freedom
  CHECK(first.at.needed_n == 20);
  REQUIRE(first.next_n == 4);                // 2 / 10 of 20
  const auto second = test.schedule(4, 10);  // 6: still only grows
  CHECK(second.at.needed_n == 20);
  REQUIRE(second.next_n == 6);
  const auto third = test.schedule(6, 10);  // 10: follows the estimate down
  CHECK(third.at.needed_n == 10);
  CHECK(third.at.fraction == Approx(6.0 / 20));  // of the previous look's needed n
  SequentialDesign bad;
  bad.free_from_df = -1;
  CHECK(design_error(bad) == "free_from_df must not be negative, not -1");
}

TEST_CASE("a design's cost: looks to the needed n, alpha all spent, a CV out of range refused",
          "[sequential]") {
  const DesignCost c = design_cost(SequentialDesign{}, 4, 0);
  REQUIRE(c.looks.size() >= 2);
  // The first look at a tenth of the needed n (35.2 a side), min 3.
  CHECK(c.looks.front().n == static_cast<std::size_t>(std::ceil(c.needed_n / 10)));
  CHECK(c.looks.front().n == 4);
  for (std::size_t k = 1; k < c.looks.size(); ++k) CHECK(c.looks[k].n > c.looks[k - 1].n);
  CHECK(static_cast<double>(c.max_n) >= c.needed_n);
  // Not settled at a CV of 4%: its nominal level, alpha x unsettled_alpha_ratio.
  CHECK(c.looks.back().alpha_spent == Approx(c.plan.unsettled_alpha));
  CHECK(!c.capped);
  CHECK(c.asn.h1x2 < c.asn.h1);
  CHECK(c.asn.h1 < static_cast<double>(c.max_n));
  CHECK(c.power >= 0.8);
  const DesignCost capped = design_cost(SequentialDesign{}, 4, 12);
  CHECK(capped.capped);
  CHECK(capped.max_n == 12);
  CHECK(capped.power < 0.8);
  CHECK_THROWS_WITH(design_cost(SequentialDesign{}, 0, 0),
                    "the CV must be from 1e-06 % to under 1000 %, not 0");
  CHECK_THROWS(design_cost(SequentialDesign{}, 0x1p-1074, 0));
}

// plan_cv_pct (bench_sequential's schedule=known): the looks come where
// design_cost plans them at that CV, whatever the samples' variance, with
// the same bounds.
TEST_CASE("a schedule that knows the CV takes the looks design_cost plans", "[sequential]") {
  SequentialDesign d;
  d.plan_cv_pct = 4;
  const DesignCost c = design_cost(d, 4, 0);
  // A sample far noisier than 4% would plan a much longer test by its variance.
  const Sides s = planted(200, 0, 12, 7);
  SequentialTest test(c.plan, Centre::kAmean, true);
  std::vector<SequentialLook> analysed;
  for (std::size_t n = 1; n <= s.base.size() && !test.finished(); ++n) {
    const SequentialLook l = test.look(std::span(s.base).first(n), std::span(s.variant).first(n));
    if (l.analysed) analysed.push_back(l);
  }
  REQUIRE(!analysed.empty());
  REQUIRE(analysed.size() <= c.looks.size());
  for (std::size_t k = 0; k < analysed.size(); ++k) {
    CHECK(analysed[k].n == static_cast<double>(c.looks[k].n));
    CHECK(analysed[k].needed_n == Approx(c.needed_n));
    CHECK(analysed[k].efficacy_bound == Approx(c.looks[k].efficacy_bound));
  }
  // Undecided on 12% noise until the planned last look, which spends all of
  // alpha (at the nominal level of a test not settled).
  CHECK(analysed.size() == c.looks.size());
  REQUIRE(c.plan.stated);
  CHECK(analysed.back().alpha_spent == Approx(c.plan.stated->level.nominal_alpha));
}

// The stated CV's level: calibrated by seeded paths at the looks that CV
// plans, the same looks whatever the true CV, and held on other paths.
TEST_CASE("looks planned from a stated CV spend the level calibrated at those looks",
          "[sequential]") {
  SequentialDesign d;
  d.plan_cv_pct = 4;
  const DesignCost at4 = design_cost(d, 4, 0), at8 = design_cost(d, 8, 0);
  REQUIRE(at4.plan.stated);
  const SequentialPlan::StatedLevel& st = *at4.plan.stated;
  CHECK_FALSE(st.settled);
  CHECK(st.level.calibration.calibrated);
  CHECK(st.paths == kStatedPaths);
  CHECK(st.level.calibration.alpha_ratio > 0.9);
  CHECK(st.level.calibration.alpha_ratio <= 1);
  CHECK(st.level.calibration.power_margin ==
        0.015);  // the needed n has 30 degrees of freedom or more
  // 0.015 plans a needed n of 31.6, the last look at 32 (0.02: 32.07, so 33,
  // which costs more than 1.05 x rpact's ASN at min_effect).
  CHECK(at4.max_n == 32);
  CHECK(st.type1 <= d.alpha);
  std::vector<double> looks, bounds;
  REQUIRE(at4.looks.size() == at8.looks.size());
  for (std::size_t k = 0; k < at4.looks.size(); ++k) {
    CHECK(at4.looks[k].n == at8.looks[k].n);  // not moved by the true CV
    looks.push_back(static_cast<double>(at4.looks[k].n));
    bounds.push_back(at4.looks[k].efficacy_bound);
  }
  CHECK(looks == st.looks);
  CHECK(at4.looks.back().alpha_spent == Approx(st.level.nominal_alpha));
  CHECK(at8.power < 0.5);  // power only near the stated CV
  CHECK(at4.power > 0.8);
  // Other paths (another seed): within 3 SE of alpha at 20,000.
  CHECK(efficacy_type1(looks, bounds, 20'000, 7, welch_z) <
        d.alpha + 3 * std::sqrt(0.05 * 0.95 / 20'000));
  // At all of alpha these looks reject more than alpha: what the level is for.
  SequentialDesign all = d;
  all.unsettled_alpha_ratio = 1;
  all.power_margin = st.level.calibration.power_margin;
  const DesignCost full = design_cost(all, 4, 0);
  std::vector<double> full_looks, full_bounds;
  for (const PlannedLook& l : full.looks) {
    full_looks.push_back(static_cast<double>(l.n));
    full_bounds.push_back(l.efficacy_bound);
  }
  CHECK(efficacy_type1(full_looks, full_bounds, kStatedPaths, kStatedSeed, welch_z) > d.alpha);
}

TEST_CASE("a stated CV of 2% takes the short margin, one of 10% all of alpha; a short run",
          "[sequential]") {
  SequentialDesign d;
  // A CV that plans a settled first look: all of alpha, no simulation.
  d.plan_cv_pct = 10;
  const SequentialPlan ten = plan_sequential(d);
  CHECK(ten.stated->settled);
  CHECK(ten.stated->level.nominal_alpha == d.alpha);
  CHECK(ten.stated->paths == 0);

  // A short seeded run of the test the runner drives, stated 2% and true 2%
  // at min_effect: it stops within the planned looks and mostly says different.
  d.plan_cv_pct = 2;
  const DesignCost c2 = design_cost(d, 2, 0);
  CHECK(c2.plan.stated->level.calibration.power_margin == 0.045);  // fewer than 30 df
  const SimulationResult r = simulate_sequential(c2.plan, Centre::kAmean,
                                                 {.cv_pct = 2,
                                                  .change_pct = 3,
                                                  .noise = Noise::kNormal,
                                                  .trials = 400,
                                                  .max_n = 60,
                                                  .seed = 5});
  CHECK(static_cast<double>(r.different) / 400 > 0.7);
  CHECK(r.mean_n >= static_cast<double>(c2.looks.front().n));
  CHECK(r.mean_n <= static_cast<double>(c2.max_n));
}

TEST_CASE("a test settled at its first look plans as normal theory does, and re-plans freely",
          "[sequential]") {
  SequentialDesign d;
  d.settled_df = 20;
  d.settled_margin = 0.02;
  const SequentialPlan plan = plan_sequential(d);
  CHECK(plan.settled_eta < plan.eta);  // power 0.82 at alpha, not 0.845 at its nominal level
  SequentialTest probe(plan, Centre::kAmean, true);
  CHECK(!probe.settled_at(10));  // 18 degrees of freedom
  CHECK(probe.settled_at(11));
  const double z = stats::normal_quantile(0.975);
  const SequentialTest::NeededTerms settled = probe.needed_terms(11);
  CHECK(settled.eta == plan.settled_eta);
  CHECK(settled.variance_quantile == 0);
  CHECK(settled.small_n == Approx(z * z / 4));
  CHECK(settled.nominal_alpha == 0.05);
  const SequentialTest::NeededTerms usual = probe.needed_terms(3);
  CHECK(usual.eta == plan.eta);
  CHECK(usual.variance_quantile == d.variance_quantile);
  CHECK(usual.small_n == Approx(d.small_n_term * z * z / 4));
  CHECK(usual.nominal_alpha == plan.unsettled_alpha);
  // The calibrated level by the first look's degrees of freedom: 3 and 4 a
  // side (4, 6) take the row of 4; 5 to 10 a side (8 to 18) the row of 8.
  for (double n : {3.0, 4.0, 4.5, 5.0, 6.0, 10.0}) {
    INFO("first look at " << n);
    const UnsettledCalibration c = unsettled_calibration(0.05, 0.8, n < 5 ? 4 : 8);
    CHECK(c.calibrated);
    CHECK(plan.unsettled_at(n).calibration.alpha_ratio == c.alpha_ratio);
    CHECK(probe.needed_terms(n).nominal_alpha == Approx(0.05 * c.alpha_ratio));
  }

  // First look at 11 a side: the needed n follows each estimate down.
  SequentialTest wide(plan, Centre::kAmean, true);
  wide.schedule(11, 150);
  CHECK(wide.schedule(30, 100).at.needed_n == 100);
  // First look at 3 with `grow`: it only grows, even at a later look with 20 df.
  SequentialDesign grow = d;
  grow.replan = SequentialReplan::kGrow;
  SequentialTest narrow(plan_sequential(grow), Centre::kAmean, true);
  narrow.schedule(3, 30);
  CHECK(narrow.schedule(12, 20).at.needed_n == 30);
  // A settled test spends alpha; one that is not, alpha x unsettled_alpha_ratio
  // (the last look spends all of its level).
  CHECK(plan.unsettled_alpha == Approx(0.05 * unsettled_calibration(0.05, 0.8, 4).alpha_ratio));
  CHECK(plan.unsettled_alpha < 0.05);
  SequentialTest settled_test(plan, Centre::kAmean, true);
  settled_test.schedule(11, 150);
  CHECK(settled_test.schedule(150, 150).alpha_spent == 0.05);
  SequentialTest unsettled_test(plan, Centre::kAmean, true);
  unsettled_test.schedule(3, 30);
  CHECK(unsettled_test.schedule(30, 30).alpha_spent == Approx(plan.unsettled_alpha));
  // Its p-value and interval agree with its decision on the stated scale.
  int different = 0, undecided = 0;
  // CV 2% over 40 rounds: mostly decided; CV 20% capped at 12: mostly undecided at the cap.
  for (double cv : {2.0, 20.0})
    for (double change : {0.0, 2.0, 3.0, 5.0})
      for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const Sides s = planted(cv == 2 ? 40 : 12, change, cv, seed);
        SequentialTest t(plan, Centre::kAmean, true);
        const SequentialLook l = run(t, s);
        REQUIRE(l.analysed);
        const AdjustedInterval a = t.adjusted_interval();
        CHECK(a.level == 0.95);
        const bool excludes_zero = a.pct.low > 0 || a.pct.high < 0;
        INFO("change " << change << " seed " << seed << " p " << l.p_value << " [" << a.pct.low
                       << ", " << a.pct.high << "]");
        // `different`: p <= alpha and no change outside the interval. Undecided
        // at the look that spends all of alpha: neither. (`same` at an earlier
        // look is what a stop there would say, whatever p is.)
        if (l.decision == SequentialDecision::kDifferent) {
          ++different;
          CHECK(l.p_value <= 0.05 + 1e-9);
          CHECK(excludes_zero);
        } else if (l.decision == SequentialDecision::kUndecided) {
          ++undecided;
          CHECK(l.p_value > 0.05);
          CHECK(!excludes_zero);
        }
      }
  CHECK(different >= 10);
  CHECK(undecided >= 1);
  // A resumed test is settled by its first past look's n.
  const std::vector<SequentialTest::PastLook> past{{11, 0.07, 150}};
  SequentialTest resumed(plan, Centre::kAmean, true, past);
  CHECK(resumed.schedule(30, 100).at.needed_n == 100);

  // design_cost: at a CV of 10% the first look has 20 df or more, and the
  // needed n is normal theory's; at 4% the design's own terms.
  const DesignCost wide_cost = design_cost(d, 10, 0);
  CHECK(wide_cost.looks.front().n >= 11);
  CHECK(wide_cost.needed_n ==
        Approx(plan.settled_eta * plan.settled_eta * 2 * (10.0 / 3) * (10.0 / 3) + z * z / 4));
  SequentialDesign usual_design = d;
  usual_design.settled_df = 0;
  const DesignCost narrow_cost = design_cost(d, 4, 0);
  const DesignCost usual_cost = design_cost(usual_design, 4, 0);
  CHECK(narrow_cost.needed_n == usual_cost.needed_n);
  CHECK(narrow_cost.max_n == usual_cost.max_n);

  // A schedule that knows the CV takes the looks design_cost plans.
  SequentialDesign known = d;
  known.plan_cv_pct = 10;
  const Sides s = planted(260, 0, 40, 9);  // too noisy to say `same` or different
  SequentialTest test(plan_sequential(known), Centre::kAmean, true);
  std::vector<SequentialLook> analysed;
  for (std::size_t n = 1; n <= s.base.size() && !test.finished(); ++n) {
    const SequentialLook l = test.look(std::span(s.base).first(n), std::span(s.variant).first(n));
    if (l.analysed) analysed.push_back(l);
  }
  REQUIRE(analysed.size() == wide_cost.looks.size());
  for (std::size_t k = 0; k < analysed.size(); ++k) {
    // Exactly: a look due at 117 comes at 117, not 118 (look_n).
    CHECK(analysed[k].n == static_cast<double>(wide_cost.looks[k].n));
    CHECK(analysed[k].needed_n == Approx(wide_cost.needed_n));
  }

  SequentialDesign bad;
  bad.settled_df = -1;
  CHECK(design_error(bad) == "settled_df must not be negative, not -1");
  bad = SequentialDesign{};
  bad.settled_margin = 0.2;
  CHECK(design_error(bad) == "power + settled_margin must be below 1, not 1");
}

// 2 / (1/n + 1/n) rounds below n at 49, 93, 117, 186, ...: a look due at
// 117 came at 118, a round after the look `schedlab design` printed.
TEST_CASE("a look's n a side is exactly n when both sides have n", "[sequential]") {
  for (std::size_t n = 2; n <= 100'000; ++n) REQUIRE(look_n(n, n) == static_cast<double>(n));
  CHECK(look_n(3, 6) == 4);
  CHECK(look_n(117, 118) == Approx(2.0 * 117 * 118 / 235));
  // A look due at 117 (6/10 of 195 after a look at 100): analysed at 117 a side, n exactly 117.
  const std::vector<SequentialTest::PastLook> past{{100, 0.5, 195}};
  SequentialTest resumed(default_plan(), Centre::kAmean, true, past);
  const Sides s = planted(117, 0, 4, 3);
  CHECK(!resumed.look(std::span(s.base).first(116), std::span(s.variant).first(116)).analysed);
  const SequentialLook l = resumed.look(s.base, s.variant);
  REQUIRE(l.analysed);
  CHECK(l.n == 117);
}

// The bounds design_error sets (issue 44) are what the numerics compute: a
// design at each edge plans, within its own alpha.
TEST_CASE("a design at the edges of design_error's bounds plans (issue 44)", "[sequential]") {
  SequentialDesign d;
  d.alpha = 1e-6;
  const SequentialPlan tight = plan_sequential(d);
  CHECK(tight.type1 <= 1e-6 * 1.05);
  CHECK(tight.power ==
        Approx(d.power + tight.unsettled.front().calibration.power_margin).margin(1e-3));
  SequentialDesign loose;
  loose.alpha = 0.499;
  loose.power = 0.999999 - unsettled_max_margin(0.499, 0.95);
  CHECK(design_error(loose).empty());
  CHECK(std::isfinite(plan_sequential(loose).eta));
}
