// Every statistic, interval and p-value against R, to a relative 1e-9, on
// the datasets of tests/analysis/stats/r_reference.R (ties, n = 2, identical
// values, a zero, negative values, n = 1, both sides constant, samples large
// enough for the normal approximation). The reference values are R's own
// output, committed as r_reference.json, so the test does not need R.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "analysis/stats/significance.h"
#include "analysis/stats/stats.h"
#include "analysis/stats/summary.h"

using namespace schedlab;
using nlohmann::json;

namespace {

const json& reference() {
  static const json doc = [] {
    std::ifstream in(std::string(SCHEDLAB_SOURCE_DIR) + "/tests/analysis/stats/r_reference.json");
    REQUIRE(in);
    return json::parse(in);
  }();
  return doc;
}

constexpr double kRel = 1e-9;

// R's NA (written as null) must be an empty optional here, and a number
// must agree to kRel (or 1e-12 absolute, for values that are 0 in R).
void agree(std::optional<double> ours, const json& r, const std::string& what) {
  INFO(what);
  if (r.is_null()) {
    CHECK_FALSE(ours);
    return;
  }
  REQUIRE(ours);
  const double want = r.get<double>();
  CHECK_THAT(*ours, Catch::Matchers::WithinRel(want, kRel) ||
                        Catch::Matchers::WithinAbs(want, 1e-12));
}

void agree(const std::optional<stats::Interval>& ours, const json& r, const std::string& what) {
  INFO(what);
  if (r.is_null()) {
    CHECK_FALSE(ours);
    return;
  }
  REQUIRE(ours);
  agree(ours->low, r.at(0), what + " low");
  agree(ours->high, r.at(1), what + " high");
}

std::optional<double> opt(double v) { return v; }

void check_side(const std::vector<double>& x, const json& r, const std::string& side) {
  agree(opt(stats::amean(x)), r["amean"], side + " amean");
  agree(opt(stats::median(x)), r["median"], side + " median");
  agree(stats::variance(x), r["variance"], side + " variance");
  agree(stats::stddev(x), r["stddev"], side + " stddev");
  agree(stats::hmean(x), r["hmean"], side + " hmean");
  agree(stats::gmean(x), r["gmean"], side + " gmean");
  for (const auto& [level, tag] : {std::pair{0.95, "95"}, {0.9, "90"}}) {
    const std::string t = tag;
    agree(stats::amean_ci(x, level), r["amean_ci_" + t], side + " amean_ci_" + t);
    agree(stats::hmean_ci(x, level), r["hmean_ci_" + t], side + " hmean_ci_" + t);
    agree(stats::gmean_ci(x, level), r["gmean_ci_" + t], side + " gmean_ci_" + t);
    const auto m = stats::median_ci(x, level);
    const json& rm = r["median_ci_" + t];
    INFO(side << " median_ci_" << t);
    REQUIRE(m.has_value() == !rm.is_null());
    if (m) {
      agree(m->ci.low, rm["low"], "median ci low");
      agree(m->ci.high, rm["high"], "median ci high");
      CHECK(m->lower_rank == rm["lower_rank"].get<std::size_t>());
      agree(m->coverage, rm["coverage"], "median ci coverage");
    }
  }
}

}  // namespace

TEST_CASE("the R reference covers at least ten datasets with the awkward cases", "[stats][r]") {
  const auto& sets = reference()["datasets"];
  CHECK(sets.size() >= 10);
  bool ties = false, two = false, zero = false, identical = false;
  for (const auto& d : sets) {
    ties |= d["ties"].get<bool>();
    two |= d["a"].size() == 2;
    for (double v : d["a"]) zero |= v == 0;
    const auto a = d["a"].get<std::vector<double>>();
    identical |= std::all_of(a.begin(), a.end(), [&](double v) { return v == a.front(); });
  }
  CHECK(ties);
  CHECK(two);
  CHECK(zero);
  CHECK(identical);
}

TEST_CASE("means, spread and intervals of the centre agree with R", "[stats][r]") {
  for (const auto& d : reference()["datasets"]) {
    INFO(d["name"].get<std::string>());
    check_side(d["a"].get<std::vector<double>>(), d["side_a"], "a");
    check_side(d["b"].get<std::vector<double>>(), d["side_b"], "b");
  }
}

TEST_CASE("Welch's t-test agrees with R's t.test", "[stats][r]") {
  for (const auto& d : reference()["datasets"]) {
    INFO(d["name"].get<std::string>());
    const auto a = d["a"].get<std::vector<double>>(), b = d["b"].get<std::vector<double>>();
    const auto w = stats::welch_t_test(a, b);
    const json& r = d["welch"];
    REQUIRE(w.has_value() == !r.is_null());
    if (!w) continue;
    agree(w->t, r["t"], "t");
    agree(w->df, r["df"], "df");
    agree(w->p_value, r["p"], "p");
  }
}

TEST_CASE("Mann-Whitney U agrees with R's wilcox.test: default, exact, corrected normal",
          "[stats][r]") {
  using stats::MwuMethod;
  for (const auto& d : reference()["datasets"]) {
    INFO(d["name"].get<std::string>());
    const auto a = d["a"].get<std::vector<double>>(), b = d["b"].get<std::vector<double>>();
    const std::pair<MwuMethod, const char*> methods[] = {{MwuMethod::kAuto, "wilcox_default"},
                                                         {MwuMethod::kExact, "wilcox_exact"},
                                                         {MwuMethod::kNormal, "wilcox_normal"}};
    for (const auto& [method, key] : methods) {
      INFO(key);
      const json& r = d[key];
      const auto u = stats::mann_whitney(a, b, method);
      if (r.is_null()) {
        CHECK_FALSE(u);
        continue;
      }
      // R reports W even when the p-value is NaN (every value equal).
      if (r["p"].is_null()) {
        CHECK_FALSE(u);
        continue;
      }
      REQUIRE(u);
      agree(u->w, r["w"], "W");
      agree(u->p_value, r["p"], "p");
    }
    // R's default is exact below 50 a side without ties.
    const auto def = stats::mann_whitney(a, b);
    if (def) CHECK(def->exact == (!d["ties"].get<bool>() && a.size() < 50 && b.size() < 50));
  }
}

TEST_CASE("the interval of the % change is Fieller's, as written out in R", "[stats][r]") {
  for (const auto& d : reference()["datasets"]) {
    INFO(d["name"].get<std::string>());
    const auto a = d["a"].get<std::vector<double>>(), b = d["b"].get<std::vector<double>>();
    const json& r = d["fieller_pct_95"];
    for (const auto& [higher, key] : {std::pair{true, "higher"}, {false, "lower"}}) {
      const auto ci = pct_interval(Centre::kAmean, higher, a, b, 0.95);
      agree(ci.ci, r.is_null() ? json(nullptr) : r[key], key);
    }
  }
}

TEST_CASE("t and normal quantiles agree with R's qt and qnorm", "[stats][r]") {
  for (const auto& q : reference()["qt"])
    agree(stats::t_quantile(q["p"], q["df"]), q["qt"], "qt");
  for (const auto& q : reference()["qnorm"])
    agree(stats::normal_quantile(q["p"]), q["qnorm"], "qnorm");
}
