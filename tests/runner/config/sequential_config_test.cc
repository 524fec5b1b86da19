// `iterations: {stop: sequential, ...}`: the design read from the config
// with its defaults, and every bad input as a file:line:key error, full text.
#include <catch2/catch.hpp>

#include "runner/config/config.h"
#include "runner/run/plan.h"
#include "runner/run/run_shape.h"
#include "tests/support/config_error.h"

using namespace schedlab;

namespace {

std::string sequential_error_of(const std::string& yaml) { return test::config_error_of(yaml); }

const char* const kTwoVariants = "variants:\n  base: {}\n  batch: {policy: batch}\n";

}  // namespace

TEST_CASE("stop: sequential reads its design, with the README's defaults", "[unit]") {
  const Config c = parse_config(std::string("iterations: {stop: sequential}\nworkloads: [hackbench]\n") + kTwoVariants,
                                "exp.yaml");
  REQUIRE(c.iterations.sequential);
  CHECK_FALSE(c.iterations.adaptive());
  CHECK(c.iterations.min == 3);
  CHECK(c.iterations.max == 60);
  const SequentialDesign& d = c.iterations.sequential->design;
  CHECK(d.alpha == 0.05);
  CHECK(d.power == 0.8);
  CHECK(d.min_effect_pct == 3);
  CHECK(d.min_n == 3);
  CHECK(c.iterations.sequential->line == 1);
  CHECK(c.iterations.sequential->key == "iterations.stop");

  const Config given = parse_config(
      std::string("iterations: {min: 4, max: 40, stop: sequential, alpha: 0.01, power: 0.9, min_effect_pct: 5}\n"
                  "workloads: [hackbench]\n") +
          kTwoVariants,
      "exp.yaml");
  const auto& g = given.iterations.sequential->design;
  CHECK(g.alpha == 0.01);
  CHECK(g.power == 0.9);
  CHECK(g.min_effect_pct == 5);
  CHECK(g.min_n == 4);
  CHECK(given.iterations.max == 40);
  CHECK(gs::spending_name(g.spending) == "obf");  // the default
  for (const auto& [text, name] : {std::pair{"pocock", "pocock"}, {"kd", "kd(2)"}, {"kd(1.5)", "kd(1.5)"}}) {
    const Config k = parse_config(std::string("iterations: {stop: sequential, spending: ") + text +
                                      "}\nworkloads: [hackbench]\n" + kTwoVariants,
                                  "exp.yaml");
    CHECK(gs::spending_name(k.iterations.sequential->design.spending) == name);
  }
  // The plan carries it to each point; --iterations N replaces it with a fixed count.
  const Plan plan = expand_plan(given);
  REQUIRE(plan.points.front().iterations.sequential);
  CHECK_FALSE(expand_plan(given, {.iterations = 2}).points.front().iterations.sequential);
}

TEST_CASE("a workload's own stop: sequential overrides the top level's count", "[unit]") {
  const Config c = parse_config(std::string("iterations: 5\nworkloads:\n  - hackbench: {iterations: {stop: sequential, max: 20}}\n") +
                                    kTwoVariants,
                                "exp.yaml");
  CHECK_FALSE(c.iterations.sequential);
  REQUIRE(c.workloads[0].iterations.sequential);
  CHECK(c.workloads[0].iterations.sequential->key == "workloads[0].hackbench.iterations.stop");
  CHECK(c.workloads[0].iterations.sequential->line == 3);
}

TEST_CASE("bad stop: sequential input is a file:line:key error", "[unit]") {
  const std::string tail = std::string("workloads: [hackbench]\n") + kTwoVariants;
  struct Case {
    std::string config, error;  // the whole config, the whole error
  };
  const Case cases[] = {
      {"iterations: {stop: sequential}\nworkloads: [hackbench]\n",
       "exp.yaml:1: iterations.stop: stop: sequential tests each variant against the baseline, and "
       "the config "
       "has one variant (add one under variants:, list two kernels, or stop on ci_width_pct)"},
      {"iterations: {stop: sequential, power: 1.5}\n" + tail,
       "exp.yaml:1: iterations.power: power must be in (0.5, 0.999999], not 1.5"},
      {"iterations: {stop: sequential, power: 0}\n" + tail,
       "exp.yaml:1: iterations.power: power must be in (0.5, 0.999999], not 0"},
      {"iterations: {stop: sequential, power: 0.99}\n" + tail,
       "exp.yaml:1: iterations.power: power must be below 0.965 (the plan asks for 0.035 more, a "
       "margin for estimated variances, and that must stay below 1), not 0.99"},
      {"iterations: {stop: sequential, power: lots}\n" + tail,
       "exp.yaml:1: iterations.power: expected a number, got 'lots'"},
      {"iterations: {stop: sequential, min_effect_pct: 0}\n" + tail,
       "exp.yaml:1: iterations.min_effect_pct: min_effect_pct must be in [0.01, 100), not 0"},
      {"iterations: {stop: sequential, min_effect_pct: -2}\n" + tail,
       "exp.yaml:1: iterations.min_effect_pct: min_effect_pct must be in [0.01, 100), not -2"},
      {"iterations: {stop: sequential, alpha: 0.7}\n" + tail,
       "exp.yaml:1: iterations.alpha: alpha must be in [1e-06, 0.5), not 0.7"},
      // Issue 44: past what the normal quantile of 1 - alpha / 2 computes.
      {"iterations: {stop: sequential, alpha: 1e-300}\n" + tail,
       "exp.yaml:1: iterations.alpha: alpha must be in [1e-06, 0.5), not 1e-300"},
      {"iterations: {stop: sequential, power: 0.99999999}\n" + tail,
       "exp.yaml:1: iterations.power: power must be in (0.5, 0.999999], not 0.99999999"},
      {"iterations: {stop: sequential, min_effect_pct: 1e-300}\n" + tail,
       "exp.yaml:1: iterations.min_effect_pct: min_effect_pct must be in [0.01, 100), not 1e-300"},
      {"iterations: {stop: sequential, spending: kd(9)}\n" + tail,
       "exp.yaml:1: iterations.spending: unknown spending function 'kd(9)'; known: obf "
       "(O'Brien-Fleming-type, the "
       "default), pocock, kd(RHO) (Kim-DeMets, alpha t^RHO, RHO from 0.5 to 5; kd is kd(2))"},
      {"iterations: {ci_width_pct: 2, spending: pocock}\n" + tail,
       "exp.yaml:1: iterations.spending: spending belongs to stop: sequential (give stop: "
       "sequential)"},
      {"iterations: {stop: sequential, min: 10, max: 5}\n" + tail,
       "exp.yaml:1: iterations.max: max (5) is below min (10)"},
      {"iterations: {stop: sequentail}\n" + tail,
       "exp.yaml:1: iterations.stop: unknown stop rule 'sequentail' (did you mean 'sequential'?); "
       "known: "
       "sequential (the interval-width rule is ci_width_pct alone)"},
      {"iterations: {stop: sequential, ci_width_pct: 2}\n" + tail,
       "exp.yaml:1: iterations.ci_width_pct: ci_width_pct and stop: sequential are two stop rules: "
       "give one"},
      {"iterations: {ci_width_pct: 2, power: 0.9}\n" + tail,
       "exp.yaml:1: iterations.power: power belongs to stop: sequential (give stop: sequential)"},
      {"iterations: {stop: sequential, powr: 0.9}\n" + tail,
       "exp.yaml:1: iterations: unknown key 'powr' (did you mean 'power'?)"},
      {"order: sequential\niterations:\n  stop: sequential\n" + tail,
       "exp.yaml:3: iterations.stop: stop: sequential decides after each interleaved round; order: "
       "sequential "
       "runs each variant's iterations at once (use order: interleaved)"},
      {"workloads:\n  - hackbench: {iterations: {stop: sequential}}\n",
       "exp.yaml:2: workloads[0].hackbench.iterations.stop: stop: sequential tests each variant "
       "against the "
       "baseline, and the config has one variant (add one under variants:, list two kernels, or "
       "stop on ci_width_pct)"},
      {"iterations: {stop: sequential}\npairs:\n  - {sut: ssh://root@10.0.0.1}\n  - {sut: "
       "ssh://root@10.0.0.2}\n" +
           tail,
       "exp.yaml:1: iterations.stop: stop: sequential decides on one pair's samples; a pairs: run "
       "measures each "
       "pair on its own (give one pair, or stop on ci_width_pct)"},
      {"iterations: {stop: sequential}\nworkloads:\n  - command:\n      name: m\n      argv: [x]\n"
       "      metrics: {t: {regex: '(?<value>[0-9]+)', direction: lower, centre: median}}\n" +
           std::string(kTwoVariants),
       "exp.yaml:1: iterations.stop: stop: sequential compares means, and m's first metric 't' is "
       "centred on "
       "the median"},
  };
  for (const auto& c : cases) {
    INFO(c.config);
    CHECK(sequential_error_of(c.config) == c.error);
  }
}

TEST_CASE(
    "stop: sequential with two lab kernels needs no second variant: the kernels are the columns", "[unit]") {
  const Config c = parse_config(
      "hosts:\n  sut: {lab: {kernels: [debian:6.1, debian:6.12]}}\n"
      "iterations: {stop: sequential}\nworkloads: [hackbench]\n",
      "exp.yaml");
  REQUIRE(c.workloads[0].iterations.sequential);
  const RunShape shape = RunShape::kernel_columns(c);
  REQUIRE(shape.columns_plan);
  std::vector<std::string> names;
  for (const auto* v : shape.columns_plan->variants) names.push_back(v->name);
  CHECK(names == std::vector<std::string>{"6.1/default", "6.12/default"});
  CHECK(shape.column_kernel == std::vector<std::size_t>{0, 1});
  CHECK(shape.kernels.size() == 2);
  // One kernel still needs two variants.
  CHECK(
      sequential_error_of("hosts:\n  sut: {lab: {kernels: [debian:6.1]}}\n"
                          "iterations: {stop: sequential}\nworkloads: [hackbench]\n") ==
      "exp.yaml:3: iterations.stop: stop: sequential tests each variant against the baseline, and "
      "the config has one variant (add one under variants:, list two kernels, or stop on "
      "ci_width_pct)");
}

// plan_cv_pct: the looks planned from a CV stated before the run.
TEST_CASE("stop: sequential takes plan_cv_pct, in % with or without the sign, and checks it", "[unit]") {
  for (const char* text : {"4", "4%"}) {
    const Config c = parse_config(std::string("iterations: {stop: sequential, plan_cv_pct: ") +
                                      text + "}\nworkloads: [hackbench]\n" + kTwoVariants,
                                  "exp.yaml");
    CHECK(c.iterations.sequential->design.plan_cv_pct == 4);
  }
  const Config none = parse_config(
      std::string("iterations: {stop: sequential}\nworkloads: [hackbench]\n") + kTwoVariants,
      "exp.yaml");
  CHECK(none.iterations.sequential->design.plan_cv_pct == 0);
  const std::string tail = std::string("workloads: [hackbench]\n") + kTwoVariants;
  const std::pair<std::string, std::string> cases[] = {
      {"iterations: {stop: sequential, plan_cv_pct: 0}\n" + tail,
       "exp.yaml:1: iterations.plan_cv_pct: plan_cv_pct must be from 0.01 to under 1000 (% of the "
       "mean), not 0"},
      {"iterations: {stop: sequential, plan_cv_pct: -4}\n" + tail,
       "exp.yaml:1: iterations.plan_cv_pct: plan_cv_pct must be from 0.01 to under 1000 (% of the "
       "mean), not -4"},
      {"iterations: {stop: sequential, plan_cv_pct: 4ms}\n" + tail,
       "exp.yaml:1: iterations.plan_cv_pct: expected a percentage of the mean such as 4 or 4%, got "
       "'4ms'"},
      {"iterations: {stop: sequential, plan_cv_pct: 4%%}\n" + tail,
       "exp.yaml:1: iterations.plan_cv_pct: expected a percentage of the mean such as 4 or 4%, got "
       "'4%%'"},
      {"iterations: {stop: sequential, plan_cvpct: 4}\n" + tail,
       "exp.yaml:1: iterations: unknown key 'plan_cvpct' (did you mean 'plan_cv_pct'?)"},
      {"iterations: {ci_width_pct: 2, plan_cv_pct: 4}\n" + tail,
       "exp.yaml:1: iterations.plan_cv_pct: plan_cv_pct belongs to stop: sequential (give stop: "
       "sequential)"},
      // Known before any data: the cap would cut the looks the CV plans.
      {"iterations: {stop: sequential, plan_cv_pct: 10}\n" + tail,
       "exp.yaml:1: iterations.plan_cv_pct: a CV of 10% plans looks up to 194 iterations a side, "
       "past max (60): "
       "raise max to 194, or leave plan_cv_pct out (the looks then follow the samples' variance "
       "and max caps them)"},
  };
  for (const auto& [config, error] : cases) {
    INFO(config);
    CHECK(sequential_error_of(config) == error);
  }
}
