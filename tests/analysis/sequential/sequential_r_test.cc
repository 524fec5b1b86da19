// Group sequential boundaries, stage-wise p-values, intervals and
// median-unbiased estimates against R's rpact, on the designs and
// datasets of tests/analysis/sequential/sequential_r_reference.R (output committed as
// sequential_r_reference.json, so the test does not need R).
//
// Tolerances. Bounds: 1e-5 where the look spends at least 1e-5 of alpha;
// 2e-4 where it spends less, since rpact's own integration is coarser in
// the far tail (at t = 0.2 after a look at t = 0.1, which spends 2.7e-12,
// rpact gives 4.87702 where the exact bound is the one-look bound at
// t = 0.2, 4.87689, which ours gives). p-values: 2e-5 absolute; interval
// ends and estimates: 1e-3 of the standard error (rpact solves them to its
// default tolerance, 1e-6 on the probability scale). Planning: power.t.test's
// n to 1e-6 of itself (R's uniroot stops at 1e-10 on n); rpact's inflation
// and ASN ratios to 1e-3 (O'Brien-Fleming-type agree to 1e-5, Pocock-type
// to 5e-4: rpact's integration against ours at r = 16).
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "analysis/sequential/group_sequential.h"
#include "analysis/sequential/sequential.h"
#include "analysis/sequential/sequential_planning.h"
#include "analysis/stats/stats.h"

using namespace schedlab;
using Catch::Matchers::WithinAbs;
using nlohmann::json;

namespace {

const json& rpact_reference() {
  static const json doc = [] {
    std::ifstream in(std::string(SCHEDLAB_SOURCE_DIR) +
                     "/tests/analysis/sequential/sequential_r_reference.json");
    REQUIRE(in);
    return json::parse(in);
  }();
  return doc;
}

constexpr int kRpactGrid = 32;

// An entry's spending function by schedlab's name (obf when none is given).
gs::Spending spending_of(const json& entry) {
  const auto f = gs::parse_spending(entry.value("spending", "obf"));
  REQUIRE(f);
  return *f;
}

}  // namespace

TEST_CASE("spending functions and boundaries agree with rpact's asOF, asP and asKD",
          "[sequential][r]") {
  const auto& designs = rpact_reference()["bounds"];
  REQUIRE(designs.size() >= 16);
  std::set<std::string> kinds;
  for (const auto& d : designs) {
    const gs::Spending f = spending_of(d);
    kinds.insert(gs::spending_name(f).substr(0, 2));
    const double alpha = d["alpha"];
    const auto rates = d["rates"].get<std::vector<double>>();
    const auto critical = d["critical"].get<std::vector<double>>();
    const auto spent = d["alpha_spent"].get<std::vector<double>>();
    INFO(gs::spending_name(f) << ", alpha " << alpha << ", " << rates.size() << " looks");
    const auto ours = gs::spending_bounds(f, alpha, rates, true, kRpactGrid);
    REQUIRE(ours.size() == critical.size());
    double before = 0;
    for (std::size_t k = 0; k < rates.size(); ++k) {
      INFO("look " << k + 1 << " at t = " << rates[k]);
      const double mine = gs::spent(f, alpha, rates[k]);
      CHECK_THAT(mine, WithinAbs(spent[k], 1e-7 + 1e-7 * spent[k]));
      const double tolerance = mine - before >= 1e-5 ? 1e-5 : 2e-4;
      CHECK_THAT(ours[k], WithinAbs(critical[k], tolerance));
      before = mine;
    }
  }
  CHECK(kinds == std::set<std::string>{"ob", "po", "kd"});
}

TEST_CASE("stage-wise p-values, intervals and estimates agree with rpact's final ones",
          "[sequential][r]") {
  const auto& analyses = rpact_reference()["analyses"];
  REQUIRE(analyses.size() >= 8);
  bool last_look = false, fall = false;
  for (const auto& a : analyses) {
    INFO(a["name"].get<std::string>());
    const double alpha = a["alpha"];
    const auto rates = a["rates"].get<std::vector<double>>();
    const auto bounds = gs::spending_bounds(spending_of(a), alpha, rates, true, kRpactGrid);
    const auto critical = a["critical"].get<std::vector<double>>();
    std::vector<double> base, variant, times;
    std::size_t stop = 0;
    double z = 0, se = 0;
    for (std::size_t k = 0; k < rates.size() && stop == 0; ++k) {
      for (double v : a["base"][k]) base.push_back(v);
      for (double v : a["variant"][k]) variant.push_back(v);
      const auto w = stats::welch_t_test(variant, base);
      REQUIRE(w);
      z = welch_z(w->t, w->df);
      se = (stats::amean(variant) - stats::amean(base)) / w->t;
      times.push_back(static_cast<double>(base.size()));
      CHECK_THAT(bounds[k], WithinAbs(critical[k], 2e-4));
      if (std::fabs(z) >= bounds[k] || k + 1 == rates.size()) stop = k + 1;
    }
    REQUIRE(stop == a["final_stage"].get<std::size_t>());
    last_look |= stop == rates.size();
    fall |= z < 0;
    const double p = gs::stagewise_p(times, bounds, z, kRpactGrid);
    CHECK_THAT(p, WithinAbs(a["final_p"].get<double>(), 2e-5));
    const auto ci = gs::stagewise_interval(times, bounds, z, 1 - alpha, kRpactGrid);
    CHECK_THAT(ci.low * se, WithinAbs(a["final_ci"][0].get<double>(), 1e-3 * se));
    CHECK_THAT(ci.high * se, WithinAbs(a["final_ci"][1].get<double>(), 1e-3 * se));
    CHECK_THAT(ci.estimate * se, WithinAbs(a["median_unbiased"].get<double>(), 1e-3 * se));
  }
  CHECK(last_look);
  CHECK(fall);
}

TEST_CASE("schedlab design's fixed n and reference ASN agree with power.t.test and rpact",
          "[sequential][r]") {
  const auto& plans = rpact_reference()["planning"];
  REQUIRE(plans.size() >= 6);
  for (const auto& p : plans) {
    SequentialDesign d;
    d.spending = spending_of(p);
    d.alpha = p["alpha"];
    d.power = p["power"];
    d.min_effect_pct = p["min_effect"];
    d.planned_looks = p["looks"];
    d.min_n = p["min"];
    const double cv = p["cv"];
    INFO(gs::spending_name(d.spending)
         << ", alpha " << d.alpha << ", power " << d.power << ", min_effect " << d.min_effect_pct
         << "%, CV " << cv << "%, " << d.planned_looks << " looks, min " << d.min_n);
    const double n = p["power_t_test_n"];
    CHECK_THAT(fixed_n_exact(d.alpha, d.power, d.min_effect_pct, cv), WithinAbs(n, 1e-6 * n));
    // At k / planned_looks.
    const EfficacyOnlyCharacteristics planned = efficacy_only_characteristics(d);
    CHECK_THAT(planned.inflation, WithinAbs(p["inflation"], 1e-3));
    CHECK_THAT(planned.asn_ratio_h0, WithinAbs(p["asn_ratio_h0"], 1e-3));
    CHECK_THAT(planned.asn_ratio_h1, WithinAbs(p["asn_ratio_h1"], 1e-3));
    const double planned_n_h1 = p["expected_n_h1"];
    CHECK_THAT(planned.asn_ratio_h1 * n, WithinAbs(planned_n_h1, 1e-3 * planned_n_h1));
    // At the rates of the looks the design takes at this CV: the reference.
    const DesignCost c = design_cost(d, cv, 0);
    CHECK(c.fixed_n == static_cast<std::size_t>(std::ceil(n)));
    std::vector<std::size_t> looks;
    for (const PlannedLook& l : c.looks) looks.push_back(l.n);
    CHECK(looks == p["looks_n"].get<std::vector<std::size_t>>());
    CHECK_THAT(c.reference.inflation, WithinAbs(p["looks_inflation"], 1e-3));
    CHECK_THAT(c.reference.asn_ratio_h0, WithinAbs(p["looks_asn_ratio_h0"], 1e-3));
    CHECK_THAT(c.reference.asn_ratio_h1, WithinAbs(p["looks_asn_ratio_h1"], 1e-3));
    const double expected_n_h1 = p["looks_expected_n_h1"];
    CHECK_THAT(c.reference_asn_h1, WithinAbs(expected_n_h1, 1e-3 * expected_n_h1));
  }
}

TEST_CASE("efficacy-only characteristics refuse rates that are not increasing to 1",
          "[sequential][r]") {
  const SequentialDesign d;
  CHECK_THROWS_AS(efficacy_only_characteristics(d, {0.5, 0.4, 1}), std::invalid_argument);
  CHECK_THROWS_AS(efficacy_only_characteristics(d, {0.5, 0.9}), std::invalid_argument);
  CHECK_THROWS_AS(efficacy_only_characteristics(d, {0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(efficacy_only_characteristics(d, {0.5, 0.5, 1}), std::invalid_argument);
}
