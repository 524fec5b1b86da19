// The nightly report over a real temporary store: regressions found with
// the rule, compared against the baseline and the previous target, with
// the schedstat diff attached from stored monitor snapshots (real
// /proc/schedstat files from the shared fixtures), or the reason it is not.
#include "analysis/nightly_report.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

const char* const kFixture = "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu";

struct Db {
  test::TempDir dir;
  Store store{dir.file("r.db")};
  // One run of hackbench time samples, with schedstat snapshots or not.
  std::int64_t run(const std::string& name, const std::vector<double>& times, bool schedstat) {
    const auto id = store.create_run({.name = name,
                                      .config_path = "c.yaml",
                                      .config_text = "x",
                                      .config_sha256 = "s",
                                      .status = RunStatus::kFinished});
    const auto v =
        store.add_variant({.run_id = id, .name = "default", .position = 0, .knobs_json = "{}"});
    store.add_metric(id, {"hackbench", "time", "s", "lower", "amean", "run", 4});
    int i = 0;
    for (double t : times) {
      IterationRow it{.run_id = id,
                      .variant_id = v,
                      .workload = "hackbench",
                      .block = "hackbench-process-pipes",
                      .row = "4",
                      .params_json = "{\"groups\":4}",
                      .iteration = i++,
                      .status = IterationStatus::kOk,
                      .started_at = "2026-11-29T00:00:00Z"};
      it.samples = {{"time", t, std::nullopt}};
      if (schedstat)
        it.monitor_snapshots = {
            {0, "schedstat", "before", "/proc/schedstat",
             test::read_text(test::fixture(std::string(kFixture) + ".before.txt"))},
            {0, "schedstat", "after", "/proc/schedstat",
             test::read_text(test::fixture(std::string(kFixture) + ".after.txt"))}};
      store.add_iteration(it);
    }
    return id;
  }
};

NightlyCell cell(const std::string& target, std::int64_t run) {
  return {.target = target, .config = "c.yaml", .status = CellStatus::kMeasured, .run_id = run};
}

}  // namespace

TEST_CASE("the nightly report finds the regression and attaches the schedstat diff of its row") {
  Db db;
  const auto base = db.run("base", {1.00, 1.01, 0.99, 1.00, 1.02}, true);
  const auto slow = db.run("slow", {1.20, 1.21, 1.19, 1.20, 1.22}, true);
  const auto plain = db.run("plain", {1.40, 1.41, 1.39, 1.40, 1.42}, false);
  NightlyReportInput in{.name = "n",
                        .targets = {"base", "slow", "plain", "broken"},
                        .baseline = 0,
                        .configs = {"c.yaml"},
                        .cells = {cell("base", base),
                                  cell("slow", slow),
                                  cell("plain", plain),
                                  {.target = "broken",
                                   .config = "c.yaml",
                                   .status = CellStatus::kFailed,
                                   .error = "hook: exit 1"}},
                        .rule = {.alpha = 0.05, .min_effect_pct = 3}};
  const NightlyReport r = build_nightly_report(db.store, in);
  // slow and plain against base, plain against slow (previous): all worse.
  REQUIRE(r.comparisons.size() == 3);
  REQUIRE(r.regressions.size() == 3);
  CHECK(r.regressions[0].target == "slow");
  CHECK(r.regressions[0].against == "baseline");
  CHECK(r.regressions[1].target == "plain");
  CHECK(r.regressions[1].against == "baseline");
  CHECK(r.regressions[2].target == "plain");
  CHECK(r.regressions[2].reference == "slow");
  CHECK(r.regressions[2].against == "previous");
  REQUIRE(r.regressions[0].schedstat);
  CHECK(r.regressions[0].schedstat->label_a == "base (5 iterations)");
  CHECK_FALSE(r.regressions[1].schedstat);
  CHECK_THAT(r.regressions[1].schedstat_reason, Contains("no schedstat monitor data in plain"));
  REQUIRE(r.failures.size() == 1);
  CHECK(r.failures[0] == "broken / c.yaml: hook: exit 1");

  const std::string md = render_nightly_markdown(r);
  CHECK_THAT(md, Contains("**3 regressions.**") &&
                     Contains("Schedstat, summed over the row's iterations") &&
                     Contains("failed: hook: exit 1"));
  CHECK(md.find("## Regressions") < md.find("## Targets"));
  const auto j = nlohmann::json::parse(render_nightly_json(r));
  CHECK(j["format_version"] == 1);
  CHECK(j["regressed"] == true);
  CHECK(j["regressions"][0]["schedstat"].is_object());
  CHECK(j["regressions"][1]["schedstat"].is_null());
  CHECK(j["regressions"][0]["pct"].get<double>() == Approx(-20).epsilon(0.01));
  CHECK(j["comparisons"][0]["compare"]["format_version"].is_number());
}

TEST_CASE("the nightly report without a measured baseline compares with the previous target only") {
  Db db;
  const auto a = db.run("a", {1.00, 1.01, 0.99, 1.00, 1.02}, false);
  const auto b = db.run("b", {1.00, 1.01, 0.99, 1.00, 1.02}, false);
  NightlyReportInput in{
      .name = "n",
      .targets = {"base", "a", "b"},
      .baseline = 0,
      .configs = {"c.yaml"},
      .cells = {{.target = "base", .config = "c.yaml", .status = CellStatus::kFailed, .error = "x"},
                cell("a", a),
                cell("b", b)}};
  const NightlyReport r = build_nightly_report(db.store, in);
  REQUIRE(r.comparisons.size() == 1);
  CHECK(r.comparisons[0].reference == "a");
  CHECK(r.comparisons[0].against == "previous");
  CHECK_FALSE(r.regressed());
}
