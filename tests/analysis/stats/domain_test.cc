// Intervals cut to the values a metric can take (analysis/stats/domain.h), on the
// issue's own examples. Reference values from R: domain_reference.R.
#include "analysis/stats/domain.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/render/render.h"
#include "analysis/stats/significance.h"
#include "base/text.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// hackbench's time as it declares it, and as a run stored before domains
// were recorded holds it (no domain).
const MetricInfo kTime{"hackbench", "time",           "s", Direction::kLowerIsBetter,
                       "amean",     SampleKind::kRun, 4,   ValueDomain::kNonNegative};
const MetricInfo kOldTime{"hackbench", "time",           "s", Direction::kLowerIsBetter,
                          "amean",     SampleKind::kRun, 4};
const MetricInfo kWakeup999{"schbench", "wakeup_p999",    "us", Direction::kLowerIsBetter,
                            "amean",    SampleKind::kRun, 0,    ValueDomain::kNonNegative};

// The issue's three hackbench times and three schbench p99.9 wake-up
// latencies (two runs at 24736 us, one at 127616 us).
const std::vector<double> kHackbench = {0.100, 0.104, 5.000};
const std::vector<double> kSchbench = {24736, 24736, 127616};

const Cell& only_cell(const Comparison& c, std::size_t column = 0) {
  return c.blocks.at(0).rows.at(0).cells.at(column);
}

// The cell's centre interval is R's t.test interval, ending at R_HIGH, with
// its low end (below 0 in R) cut to 0.
void check_cut_at_zero(const Cell& cell, double r_high) {
  REQUIRE(cell.ci.ci);
  CHECK(cell.ci.ci->low == 0);
  CHECK_THAT(cell.ci.ci->high, WithinRel(r_high, 1e-9));
  CHECK(cell.ci.cut.low);
}

}  // namespace

TEST_CASE("cutting an interval to a nonnegative domain") {
  stats::Interval ci{-5.29, 8.76};
  DomainCut cut = cut_to_domain(ci, ValueDomain::kNonNegative);
  CHECK(ci.low == 0);
  CHECK(ci.high == 8.76);
  CHECK((cut.low && !cut.high));
  ci = {0.5, 8.76};
  CHECK_FALSE(cut_to_domain(ci, ValueDomain::kNonNegative));
  CHECK(ci.low == 0.5);
  ci = {-5.29, 8.76};
  CHECK_FALSE(cut_to_domain(ci, ValueDomain::kUnbounded));
  CHECK(ci.low == -5.29);

  // A change of a nonnegative metric: the ratio new / base is >= 0, so a
  // higher-is-better change is >= -100%, a lower-is-better one <= +100%.
  stats::Interval pct{-437.15, 402.90};
  cut = cut_pct_to_domain(pct, ValueDomain::kNonNegative, false);
  CHECK((pct.low == -437.15 && pct.high == 100));
  CHECK((!cut.low && cut.high));
  pct = {-150, 20};
  cut = cut_pct_to_domain(pct, ValueDomain::kNonNegative, true);
  CHECK((pct.low == -100 && pct.high == 20));
  CHECK((cut.low && !cut.high));
  pct = {-150, 20};
  CHECK_FALSE(cut_pct_to_domain(pct, ValueDomain::kUnbounded, true));
  CHECK(domain_text(ValueDomain::kNonNegative) == "values >= 0");
}

TEST_CASE("three hackbench times 0.100, 0.104 and 5.000 s: the interval starts at 0, said so") {
  const Comparison c = compare_samples({{"a", kHackbench}}, kTime);
  const Cell& cell = only_cell(c);
  // R: t.test(c(0.1, 0.104, 5))$conf.int = [-5.29013278, 8.759466114]
  check_cut_at_zero(cell, 8.759466114);
  CHECK_FALSE(cell.ci.cut.high);
  CHECK(cell.summary.ci.ci->low == 0);
  CHECK(c.blocks[0].metric.domain == ValueDomain::kNonNegative);

  const auto j = nlohmann::json::parse(render_stats_json(c));
  CHECK(j["columns"][0]["ci_low"] == 0.0);
  CHECK(j["columns"][0]["ci_truncated"] == true);
  CHECK(j["columns"][0]["pct_ci_truncated"] == false);
  const std::string text = render_stats_text(c);
  CHECK_THAT(text, Contains("[0.0000, 8.7595] cut (student-t)"));
  CHECK_THAT(text, Contains("1 centre interval cut to the metric's values >= 0 (95% coverage kept, "
                            "the true value lies inside)"));

  // The same samples of a metric with no known domain: R's interval, as
  // before, and nothing said.
  const Comparison u = compare_samples({{"a", kHackbench}}, kOldTime);
  CHECK_THAT(only_cell(u).ci.ci->low, WithinRel(-5.29013278, 1e-9));
  CHECK_FALSE(only_cell(u).ci.cut);
  CHECK(u.blocks[0].metric.domain == ValueDomain::kUnbounded);
  CHECK_THAT(render_stats_text(u), !Contains("cut"));
  CHECK(nlohmann::json::parse(render_stats_json(u))["columns"][0]["ci_truncated"] == false);
}

TEST_CASE("a schbench p99.9 wake-up latency over three runs: the interval starts at 0") {
  const Comparison c = compare_samples({{"a", kSchbench}}, kWakeup999);
  // R: t.test(c(24736, 24736, 127616))$conf.int = [-88522.97095, 206581.6376]
  check_cut_at_zero(only_cell(c), 206581.6376);
  const auto j = nlohmann::json::parse(render_json(c));
  const auto& jc = j["blocks"][0]["rows"][0]["cells"][0];
  CHECK(jc["ci_low"] == 0.0);
  CHECK(jc["ci_truncated"] == true);
  CHECK(j["blocks"][0]["metric"]["domain"] == "nonnegative");
  CHECK_THAT(render_text(c), Contains("1 centre interval cut to the metric's values >= 0"));
  CHECK_THAT(render_markdown(c), Contains("1 centre interval cut to the metric's values \\>= 0"));
}

TEST_CASE("a change interval past -100% or +100% is cut where the ratio is 0") {
  // A tight baseline against a noisy variant, lower is better. R (Fieller,
  // Welch's df): ratio [-3.029000008, 5.371543815], change
  // [-437.1543815%, +402.9000008%]; a ratio below 0 cannot be.
  const std::vector<double> base = {1.0, 1.1, 0.9}, noisy = {0.1, 0.2, 3.0};
  const Comparison c = compare_samples({{"base", base}, {"noisy", noisy}}, kTime);
  const Cell& cell = only_cell(c, 1);
  REQUIRE(cell.pct_ci);
  CHECK_THAT(cell.pct_ci->low, WithinRel(-437.1543815, 1e-8));
  CHECK(cell.pct_ci->high == 100);
  CHECK((cell.pct_ci_cut.high && !cell.pct_ci_cut.low));
  const auto j = nlohmann::json::parse(render_json(c));
  CHECK(j["blocks"][0]["rows"][0]["cells"][1]["pct_ci_truncated"] == true);
  CHECK(j["blocks"][0]["rows"][0]["cells"][1]["pct_ci_high"] == 100.0);
  CHECK_THAT(render_text(c), Contains("1 change interval cut to the metric's values >= 0"));

  // Unbounded domain: Fieller's interval as R gives it.
  const Comparison u = compare_samples({{"base", base}, {"noisy", noisy}}, kOldTime);
  CHECK_THAT(only_cell(u, 1).pct_ci->high, WithinRel(402.9000008, 1e-8));
  CHECK_FALSE(only_cell(u, 1).pct_ci_cut);
}

TEST_CASE("a baseline too noisy for a bounded change interval: the bound the domain leaves") {
  // The issue's hackbench times as the baseline. R: A < 0, Fieller's set
  // is outside the roots [-0.01927687896, 0.01164024081]; within ratios
  // >= 0 it is [0.01164, inf): lower is better, a change of at most
  // (1 - 0.01164024081) * 100 = +98.84%.
  const Comparison c =
      compare_samples({{"base", kHackbench}, {"steady", {0.101, 0.102, 0.103}}}, kTime);
  const Cell& cell = only_cell(c, 1);
  CHECK_FALSE(cell.pct_ci);
  CHECK(cell.pct_ci_reason ==
        "baseline too noisy: the ratio's interval is unbounded; cut to values >= 0 it leaves a "
        "change of at most +98.84%");
  CHECK_THAT(render_stats_text(c),
             Contains("change n/a (baseline too noisy: the ratio's interval "
                      "is unbounded; cut to values >= 0 it leaves a change of "
                      "at most +98.84%)"));
  // Higher is better (an amean rate). R: roots [-5.828910255,
  // 1.932659089]: a change of at least +93.27%.
  const MetricInfo rate{"tbench", "throughput",     "MB/s", Direction::kHigherIsBetter,
                        "amean",  SampleKind::kRun, 2,      ValueDomain::kNonNegative};
  const Comparison r = compare_samples({{"base", {100, 110, 2}}, {"x", {400, 410, 420}}}, rate);
  CHECK(only_cell(r, 1).pct_ci_reason ==
        "baseline too noisy: the ratio's interval is unbounded; cut to values >= 0 it leaves a "
        "change of at least +93.27%");
  // With no domain known, the reason as before.
  const Comparison u =
      compare_samples({{"base", kHackbench}, {"steady", {0.101, 0.102, 0.103}}}, kOldTime);
  CHECK(only_cell(u, 1).pct_ci_reason == "baseline too noisy: the ratio's interval is unbounded");
}

TEST_CASE("a sample below 0 belies a nonnegative domain: nothing is cut") {
  const Comparison c = compare_samples({{"a", {-1.0, 0.104, 5.000}}}, kTime);
  CHECK_FALSE(only_cell(c).ci.cut);
  CHECK(only_cell(c).ci.ci->low < 0);
  CHECK(c.blocks[0].metric.domain == ValueDomain::kUnbounded);
}

TEST_CASE("a run stored before domains were recorded gets its workload's, by name") {
  test::TempDir dir;
  Store store(dir.file("old.db"));
  const auto run = test::plain_run(store, "old");
  const auto variant = store.variants_table().add_variant({0, run, "default", 0, "{}"});
  store.metrics_table().add_metric(run, kOldTime);  // no domain: as migration 17 leaves it
  int i = 0;
  for (double v : kHackbench)
    store.iterations_table().add_iteration({.run_id = run,
                                            .variant_id = variant,
                                            .workload = "hackbench",
                                            .block = "hackbench",
                                            .row = "1",
                                            .params_json = R"({"groups":1})",
                                            .iteration = i++,
                                            .samples = {{"time", v, std::nullopt}}});
  const auto columns = default_columns(store, {run});
  // Without a lookup: unbounded, R's interval.
  CHECK(compare(store, columns).blocks.at(0).rows.at(0).cells.at(0).ci.ci->low < 0);
  // The registry's answer (the runner passes workloads' declared_domain).
  CompareOptions o;
  o.known_domain = [](const std::string& workload, const std::string& metric) {
    return workload == "hackbench" && metric == "time" ? std::optional(ValueDomain::kNonNegative)
                                                       : std::nullopt;
  };
  const Comparison c = compare(store, columns, o);
  CHECK(c.blocks.at(0).metric.domain == ValueDomain::kNonNegative);
  CHECK(c.blocks.at(0).rows.at(0).cells.at(0).ci.ci->low == 0);
  CHECK(c.blocks.at(0).rows.at(0).cells.at(0).ci.cut.low);
}

TEST_CASE(
    "in-range extremes (1e149 against 1e-149) print in a bounded width, JSON exact (hostile11)") {
  // hostile10 35: the Amean printed as a 150-digit number, and the change
  // of 1e-149 -> 1e149 as a 300-digit percentage.
  const std::vector<double> big = {1e149, 1.1e149, 0.9e149};
  const std::vector<double> tiny = {1e-149, 1.1e-149, 0.9e-149};
  for (const auto& [base, other] : {std::pair{big, tiny}, std::pair{tiny, big}}) {
    const Comparison c = compare_samples({{"a", base}, {"b", other}}, kOldTime);
    for (const std::string& out : {render_text(c), render_markdown(c), render_stats_text(c)}) {
      INFO(out);
      CHECK_THAT(out, Contains("1.000e+149"));
      std::size_t longest = 0;
      for (std::size_t at = 0, nl; (nl = out.find('\n', at)) != std::string::npos; at = nl + 1)
        longest = std::max(longest, nl - at);
      CHECK(longest <= 120);
    }
    CHECK(nlohmann::json::parse(render_json(c)).dump().find("1e+149") != std::string::npos);
  }
  const Comparison up = compare_samples({{"a", tiny}, {"b", big}}, kOldTime);
  CHECK_THAT(render_text(up), Contains("1.000e+149 *-1.000e+300%*"));
  CHECK_THAT(render_markdown(up), Contains("1.000e+149 \\*-1.000e+300%\\*"));
  // Below the limits, as before.
  CHECK(fixed_text(12345678901234.5, 1) == "12345678901234.5");
  CHECK(fixed_text(999999.994, 2, kPctLimit) == "999999.99");
  CHECK(fixed_text(-1e6, 2, kPctLimit) == "-1.000e+06");
}

TEST_CASE(
    "stats text: one style per interval, no -0.00%, a space between wide columns "
    "(hostile16)") {
  const MetricInfo plain{"", "v", "", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4};
  // An interval across 1e15: both bounds scientific, never
  // "[982324490900835.1250, 1.011e+15]".
  const std::string wide =
      render_stats_text(compare_samples({{"a", {0.99e15, 1.0e15, 1.01e15}}}, plain));
  INFO(wide);
  CHECK_THAT(wide, Contains("[9.752e+14, 1.025e+15]"));
  // Samples that barely differ: a change interval around 0 prints 0.00%, not -0.00%.
  const std::string zero =
      render_stats_text(compare_samples({{"a", {5, 5.000001, 5}}, {"b", {5, 5, 5.000001}}}, plain));
  INFO(zero);
  CHECK_THAT(zero, Contains("change [0.00%, 0.00%]"));
  CHECK_THAT(zero, !Contains("-0.00"));
  // --precision 12: a value wider than its share of the cell widens the
  // column, a space before it; it touched the column on its left.
  MetricInfo precise = plain;
  precise.precision = 12;
  const std::string table =
      render_text(compare_samples({{"a", {5, 5, 5}}, {"b", {5, 5, 5}}}, precise));
  INFO(table);
  CHECK_THAT(table, Contains("0.00%) 5.000000000000"));
  CHECK_THAT(table, !Contains("%)5"));
}
